"""Who measured skill: the players behind a skill measure, and where each was validated.

Contract: `validation(spec, rules)` says, in one phrase, whether the player `spec` has been
trained, tuned or validated on the rule set `rules` (docs/strategies.md gives the tables:
`TABLES` below copies them; a hand-written heuristic or a search over the rules as given
is not fitted to a table). `who_measured(strong, weak, rules_list)` is the sentence a
page carries beside every skill measure: the players, and per rule set whether each was
validated there. A skill measure under a rule set its players were not validated on may
show the player's fit to the table it learned rather than the rule's effect.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

from crates_sim.rules import Rules

#: the strong player of skill_gap in balance and design by default: adept, trained across
#: every preset, player count and drawn knob sets with the rules as its inputs (issue 38),
#: so that it fits the rule set measured, searching as expert does in Crates the decisions
#: of the race to an empty stock: where a seat may draw beside a card, those draws
#: (stock=4: there the network alone is 21 points of win rate below expert in classic, the
#: search 10 above), and every card decision while the stock holds 4 cards or fewer (dry=4:
#: where few wild cards run the stock dry, the network alone is 26 to 57 points below
#: expert, the search -10 to +1); together +1.2 to +9.0 against expert on every Crates
#: preset table (docs/strategies.md); in Crazy Eights plain adept's games; and balance's
#: players by default
#: (the luck/skill index is then measured under strong play against greedy; the network
#: alone, for its speed)
DEFAULT_STRONG = "adept:stock=4:dry=4"
BALANCE_STRATEGIES = "adept,greedy"
#: the tables of a learned or tuned player (docs/strategies.md): (preset, partnerships)
CLASSIC_BOTH = (("classic", True), ("classic", False))
TABLES = {
    "tuned": CLASSIC_BOTH,
    "weights": CLASSIC_BOTH,
    "apprentice": CLASSIC_BOTH + (("crazy-eights", False),),
    "adept": CLASSIC_BOTH + (("crazy-eights", False),),  # adept:net=1..3; net=0: _rule_reader
    "guided": CLASSIC_BOTH + (("crazy-eights", False),),
    "thumb": CLASSIC_BOTH,
    "expert": CLASSIC_BOTH + (("crazy-eights", False),),
}
#: players fitted to no table: they follow whatever rules they are given
RULE_FREE = {
    "random": "uniform among the legal options",
    "greedy": "a hand-written heuristic",
    "hoard3": "a hand-written heuristic",
    "dump3": "a hand-written heuristic",
    "keep3": "a hand-written heuristic",
    "aggressive": "a hand-written heuristic",
    "partner": "a hand-written heuristic",
    "pimc": "a search over the rules as given",
}


#: adept's measured distance from expert (points of win rate) beyond which a page warns that
#: skill measured with it understates strong play: the issue-38 target's -3
WEAK_BELOW_EXPERT = 3.0
#: adept (the shipped networks) against expert per rule set, measured (issue 38): the file
#: says which commands rebuild it
MEASURED_FILE = "adept_measured.json"


def measured_spec(spec, rules) -> str:
    """The adept whose measurement in MEASURED_FILE stands for the rule-reading adept `spec`
    on `rules`: "adept" where it plays plain adept's games there (search 0, dry 0 or a
    rule set where it cannot fire: `adept.dry_search_fires`, and stock 0 or one where the
    stock search cannot fire: `adept.stock_search_fires`), else "adept:" and the search
    parameters that fire there, as given ("adept:stock=4"; "adept:dry=4" for
    adept:stock=4:dry=4 where only dry fires, whose games it then plays; samples only when
    not its default, and depth and margin likewise). On a rule set where the shipped adept
    searches by a searched route (`adept.searched_route_of`), "adept" is that search's
    games (the route's spec spelt out, `adept.searched_spec`, is named "adept" too) and
    "adept:route=2" the networks' alone. A `draw` that changes what a voluntary draw
    scores there from the same adept's default (`adept.draw_bonus_of`) is named next
    ("adept:draw=0": adept's games from before DRAW_AT_WILL_BONUS), and a `war` that
    changes where it fights the pressure war unscored (`adept.war_hand_of`) after it
    ("adept:war=0": adept's games from before WAR_HAND), and a `hoard` that changes from
    what stock it draws unscored (`adept.hoard_stock_of`) last ("adept:hoard=0": adept's
    games from before HOARD_STOCK)."""
    from crates_sim.strategies.adept import draw_bonus_of, hoard_stock_of, war_hand_of
    from crates_sim.strategy import BUILTINS, parse_spec

    _name, values = parse_spec(str(spec))
    base = _measured_search_spec(values, rules)
    default = BUILTINS["adept"][2]
    net = values.get("net", default["net"].default)
    route = values.get("route", default["route"].default)
    draw = values.get("draw", default["draw"].default)
    if "draw" in values and draw_bonus_of(rules, net, route, draw) != draw_bonus_of(rules, net, route):
        base += f":draw={draw:g}"
    war = values.get("war")
    if war is not None and war_hand_of(rules, net, route, draw, war) != war_hand_of(rules, net, route, draw):
        base += f":war={war:g}"
    hoard = values.get("hoard")
    if hoard is not None and (hoard_stock_of(rules, net, route, draw, hoard)
                              != hoard_stock_of(rules, net, route, draw)):
        base += f":hoard={hoard:g}"
    return base


def _measured_search_spec(values, rules) -> str:
    """measured_spec's name for the search parameters of `values` (draw aside)."""
    from crates_sim.strategies.adept import dry_search_fires, searched_route_of, stock_search_fires
    from crates_sim.strategy import BUILTINS

    fires = {"search": True, "stock": stock_search_fires(rules), "dry": dry_search_fires(rules)}
    searched = [k for k in fires if values.get(k) and fires[k]]
    if not searched:
        # route=2 neither searches nor hoards: told apart wherever a route's search fires
        # for an adept that does not hoard (partners at will: adept:hoard=0 searches)
        if values.get("route") == 2 and searched_route_of(rules, hoard=0.0) is not None:
            return "adept:route=2"
        return "adept"
    default = BUILTINS["adept"][2]
    settings = tuple(values.get(k, default[k].default) for k in ("dry", "samples", "depth",
                                                                    "margin"))
    if (searched == ["dry"] and settings == searched_route_of(rules)
            and values.get("net", default["net"].default) == 0
            and values.get("route", default["route"].default) == 1):
        # the shipped adept's searched route spelt out: its games (not with route=2, which
        # drops the draw bonus where a seat may draw at will)
        return "adept"
    return ":".join(["adept"] + [f"{k}={values[k]:g}"
                                 for k in (*searched, "samples", "depth", "margin")
                                 if k in values and values[k] != default[k].default])


def adept_measured(rules, spec: str = "adept"):
    """(win_diff, lo, hi, deals, seed) of the rule-reading adept `spec` against expert on
    `rules`, or None where that rule set was not measured with it
    (analysis/adept_measured.json: a row without "spec" is plain adept's)."""
    key, who = _rules_key(rules), measured_spec(spec, rules)
    for row in _measured_rows():
        if (row.get("spec", "adept") == who and row["players"] == rules.players
                and _rules_key(Rules.from_spec(row["rules"], row["players"])) == key):
            return row["win_diff"], row["win_lo"], row["win_hi"], row["deals"], row["seed"]
    return None


def _rules_key(rules) -> bytes:
    """What makes two rule sets the same game: the kernels' rules array (the knobs alone do
    not: crazy-eights and very-crazy-eights share them, their cards differ)."""
    return rules.to_array().tobytes()


#: what the file says it is, and the command that rebuilds it (`crates rebuild adept-measured`)
MEASURED_ABOUT = ("adept (the shipped networks) against expert per rule set: points of win rate, 95% CIs, "
                  "duplicate deals, seats rotated (issue 38; docs/strategies.md); a row with a spec is "
                  "adept with its search where that search fires (adept:stock=4, adept:dry=4), "
                  "or adept:route=2, the networks alone where adept searches by a searched route, "
                  "or one ending :draw=0, adept without its draw bonus where a seat may draw at will, "
                  "or :war=0, adept with it but without its play of the pressure war, "
                  "or :hoard=0, adept without its unscored draws while the stock is high, "
                  "or adept:hoard=4, adept's hoard in partnerships where no 5 makes every seat "
                  "draw before it drew there to the last card (HOARD_STOCK_PARTNERS_NO_FIVE), "
                  "or adept:draw=25, adept's bonus with 5 players before DRAW_AT_WILL_BONUS_FIVE, "
                  "or adept:dry=2:samples=8:depth=6, adept's search of Crates partnership tables "
                  "where only the 8s are wild and nobody may draw at will before it searched the "
                  "network's close calls alone with 12 deals (PARTNERS_EIGHTS_SEARCH), "
                  "or adept:dry=2:samples=12:depth=6:margin=8, that search's 12 deals on such "
                  "tables of 44 cards or fewer before it took fewer there "
                  "(PARTNERS_EIGHTS_SHORT_SEARCHES), "
                  "or adept:net=18, adept's specialist on classic with 5 players before set 32, "
                  "or adept:net=11, its specialist on classic with 4 in partnerships before set 33, "
                  "or adept:dry=2:samples=4:depth=6:margin=8, the gated search tried (not kept) as a "
                  "searched route on Crates partnership tables of 44 cards with the 8s and 9s wild, "
                  "or adept:net=23, adept's two-player network before set 34 on two-player Crates "
                  "tables with a wild card and no draws at will where it did not search "
                  "(TWO_PLAYER_SHORT_SET; its rows where it searched, only the 9s wild, and those "
                  "of its searches there were dropped; where it searched, adept:route=2's rows, "
                  "the networks alone, were set 23's and are adept:net=23's now), "
                  "or adept:net=26, adept's three-player network before set 35 on three-player "
                  "Crates tables of 44 or 48 cards with a wild card and no draws at will "
                  "(THREE_PLAYER_SHORT_SET; the rows of searched specs there were dropped), "
                  "the others the shipped adept's games. Rebuilt by "
                  "`crates rebuild adept-measured FOLDER... --write` from `crates compare --strategies "
                  "adept,expert` (or adept:stock=4,expert) folders (the first eight "
                  "five-player Crates rule sets without draws at will drawn by seed 12643, on "
                  "seeds 66940-66947 with adept, 1,000 deals each; after set 36, "
                  "THREE_PLAYER_NO_WILD_SET: seed 12640's ten rule sets, "
                  "knob_space.random_tables(10, 12640), on seeds 66890-66899 with adept, 1,000 "
                  "deals each but 300 on its tables with draws at will and 3 or 4 players, 00 "
                  "and 08, and 100 on its two-player one, 03; the 11 rows of three-player Crates "
                  "rule sets with no wild card and no draws at will again with adept, on their "
                  "own seeds, 1,000 deals each, and the first ten such rule sets drawn by seed "
                  "12642 on seeds 66870-66879 with set 36 and its search, 1,000 deals each (the "
                  "rows of searched specs on those rule sets, adept:route=2 and adept:dry=4, "
                  "whose games the new network changes, were dropped); seed 12630's ten rule "
                  "sets, knob_space.random_tables(10, 12630), on seeds 66820-66829 with adept, "
                  "1,000 deals each but 300 on its tables with draws at will, 01, 03 and 06; "
                  "after the four-player "
                  "short decks' round, tried and not kept: seed 12620's ten rule sets, "
                  "knob_space.random_tables(10, 12620), on seeds 66780-66789 with adept, 1,000 "
                  "deals each but 300 on its tables with draws at will, 01, 03, 08 and 09, and "
                  "03 again on seed 66790, 1,000 deals (the row kept); the first six "
                  "four-player Crates rule sets in individual play of 44 cards with a wild card "
                  "and no draws at will drawn by seed 12625, on seeds 66760-66765 with adept, "
                  "1,000 deals each; after set 35, THREE_PLAYER_SHORT_SET: "
                  "the 23 rows of three-player Crates rule sets of 44 or 48 cards with a wild card "
                  "and no draws at will again with adept:net=35, which plays adept's games there, "
                  "on their own seeds, 1,000 deals each; seed 12610's ten rule sets, "
                  "knob_space.random_tables(10, 12610), on seeds 66560-66569 with adept, 1,000 "
                  "deals each but 300 on 07 (draws at will); after set 34, TWO_PLAYER_SHORT_SET: "
                  "the 38 rows of two-player Crates rule sets with a wild card and no draws at will "
                  "that adept now plays with set 34 again with adept, on their own seeds, 1,000 "
                  "deals each; seed 12600's ten rule sets, knob_space.random_tables(10, 12600), on "
                  "seeds 66420-66429 with adept, 1,000 deals each but 300 on 05 (draws at will), "
                  "its 01, 06, 08 and 09 with set 34, and 08 again on seed 66440; seed 62854's "
                  "rule set again on seed 66550; after the hoard to the last "
                  "card, HOARD_STOCK_PARTNERS_NO_FIVE: the ten rule sets "
                  "knob_space.random_tables(10, 12590) draws, on seeds 66330-66339 with adept, "
                  "1,000 deals each but 300 on its tables with draws at will and 3 or 4 "
                  "players, 00, 01 and 07, and 100 on 04, with 2; seed 12570's table 09 again on seed 66129 "
                  "with adept, 300 deals, on the deals of its row before, now adept:hoard=4's; "
                  "the ten rule sets knob_space.random_tables(10, 12580) draws, on seeds "
                  "66210-66219 with adept, 1,000 deals each but 300 on its tables with draws at "
                  "will, 01 and 09; after the short decks' deals, "
                  "PARTNERS_EIGHTS_SHORT_SEARCHES: the ten rule sets knob_space.random_tables(10, "
                  "12570) draws, on seeds 66120-66129 with adept, 1,000 deals each but 300 on its "
                  "four-player tables with draws at will, 02, 04 and 09, and 100 on its two-player "
                  "ones, 01 and 06; the ten rule sets knob_space.random_tables(10, "
                  "12560) draws, on seeds 66080-66089 with adept, 1,000 deals each but 300 on its "
                  "tables with draws at will, 03, 04 and 08; the rows on seeds 66053, 66055, 66057 "
                  "and 59107 again with adept:dry=2:samples=8:depth=6:margin=8, the games adept "
                  "plays there now, on their deals; three such rule sets of 40 and 36 cards on "
                  "seeds 66070-66072 with adept before and after, 1,000 deals each; "
                  "after the positions against expert: "
                  "the first eight rule sets knob_space.partnerships_short_deck_tables(12550, 8) "
                  "draws, on seeds 66050-66057 with adept, 1,000 deals each; "
                  "the ten rule sets knob_space.random_tables(10, 12550) draws, on seeds "
                  "66010-66019 with adept, 1,000 deals each but 300 on its tables with draws at "
                  "will and 3 players or more, 05, 06 and 09, and 100 on its two-player one, 02; "
                  "after the routes memo: the ten "
                  "rule sets knob_space.random_tables(10, 12540) draws, on seeds 66000-66009 with "
                  "adept, 1,000 deals each but 300 on its four-player tables with draws at will, "
                  "01, 03 and 09, and 100 on its two-player one, 06; the ten of "
                  "knob_space.random_tables(10, 12510), on seeds 65940-65949 with "
                  "adept, 1,000 deals each; after the route tried on Crates "
                  "partnership tables of 44 cards with the 8s and 9s wild and no draws at will: "
                  "classic:remove_ranks=QK, serbian:remove_ranks=JQ and classic:remove_ranks=TJ with "
                  "4 players on seeds 65810-65812 with the search and the networks alone, the rule "
                  "sets of the rows on seeds 61924 and 60266 again on those seeds with the search, "
                  "and the first four such rule sets of knob_space.random_tables(3000, 12490) on "
                  "seeds 65830-65833 with both, 1,000 deals each; "
                  "after set 32's route on classic "
                  "with 5 players and set 33's on classic with 4 in partnerships: those tables on "
                  "seeds 62962 and 62967, 2,000 deals each, and --tables "
                  "drawn:10:12470's tables on seeds 62970-62979 with adept, 1,000 deals each; "
                  "after the ladder, drawn:10:12480's tables on seeds 65500-65509 with adept, "
                  "1,000 deals each but 100 on its two-player tables with draws at will, 05 and 07; "
                  "after the close calls' search, "
                  "--tables every on seed 62900 (seed + T), and --tables drawn:10:12460's "
                  "tables on seeds 62850-62859 with adept, 1,000 deals each, and, for "
                  "PARTNERS_EIGHTS_SEARCH, seed 12450's table 06 on seed 62766, the first six "
                  "such rule sets drawn by seed 11810 on seeds 61520-61525, and the rows on seeds "
                  "62625, 59107, 60269 and 61305 again, with adept, 1,000 deals each, on the same "
                  "deals as their earlier rows; every earlier row of adept on such rule sets is "
                  "adept:dry=2:samples=8:depth=6's; after the five-player bonus, "
                  "DRAW_AT_WILL_BONUS_FIVE: --tables drawn:10:12450's tables on seeds "
                  "62760-62769, and classic with 5 players and draws at will and the first six "
                  "such rule sets drawn by seed 12440 on seeds 62690-62696, with adept, 1,000 "
                  "deals each; every earlier five-player row of adept where a seat may "
                  "draw at will is adept:draw=25's (adept:draw=25:hoard=0's), adept:draw=10's on "
                  "seeds 62650, 62602-62607 and 62680-62683 are adept's, and adept:draw=25 on "
                  "62680-62683, 300 deals each; after the hoard: --tables "
                  "drawn:10:12410's tables on seeds 62610-62618 with adept, 1,000 deals each, and its "
                  "table 09 on seed 62619, 300 deals; the first ten Crates partnership rule sets "
                  "without draws at will drawn by seed 12421 on seeds 62620-62629 with adept, "
                  "1,000 deals each; classic with 5 players and draws at will on seed 62650 with "
                  "adept and adept:draw=0, 1,000 deals (their rows on seed 62600, 300 deals, "
                  "replaced); after the hoard, HOARD_STOCK: "
                  "the nine rows of adept with 3 or 4 players where a seat may draw at will measured "
                  "again on their own seeds and deals, 62403, 62464, 62409, 61929, 62041, 62040, "
                  "62043, 61923 and 62469, those from before it being adept:hoard=0's, and two "
                  "more with both, seeds 62600 and 62601, 300 deals each, and seven five-player rule sets "
                  "with draws at will with adept and adept:draw=0, seeds 62600 and 62602-62607, 300 "
                  "deals each; after the pressure war: --tables "
                  "drawn:10:12310's tables on seeds 62460-62469 with adept, 1,000 deals each; "
                  "after the pressure war, WAR_HAND: "
                  "the ten rows of adept with its draw bonus measured again on their own seeds "
                  "and deals, 62403, 62409, 61929, 62041-62043, 62040, 61923, 61926 and 61927, "
                  "those from before it being adept:war=0's; after the draw bonus: --tables "
                  "drawn:10:12300's tables on seeds 62400-62409 with adept, 300 deals each; after the "
                  "draw bonus on Crates "
                  "rule sets where a seat may draw at will: eight such rule sets with adept, on seeds "
                  "62040, 61923, 61926, 61927, 61929 and 62041-62043 (docs/strategies.md, \"Drawing "
                  "at will pays\"); every earlier row on such a rule set, measured before the bonus, "
                  "is adept:draw=0's (or its search's spec with :draw=0), adept:route=2's rows "
                  "unchanged; after adept's sixth searched "
                  "route: --tables drawn:10:12130's "
                  "tables on seeds 61920-61929 with adept, 1,000 deals each; after the sixth "
                  "searched route, on its tables, two-player Crates tables where only the 9s are wild and "
                  "nobody draws at will: the first six such rule sets drawn by seed 12090 on seeds "
                  "61810-61815 with adept and with adept:route=2, 1,000 deals each; the earlier row "
                  "on such a rule set, measured before that search, is adept:route=2's, and that "
                  "rule set again with adept on its own seed, 1,000 deals; after adept's fifth searched "
                  "route: --tables drawn:10:12040's tables on seeds 61740-61749 with adept, 1,000 "
                  "deals each; on that route's tables, two-player Crates tables where a seat may draw at will and "
                  "only the 8s are wild: the first six such rule sets drawn by seed 12030 on seeds "
                  "61730-61735 with adept and with adept:route=2, 1,000 deals each; every earlier "
                  "row on such a rule set, measured before that search, is adept:route=2's, and each "
                  "of those four rule sets again with adept on its own seed, 1,000 deals each; "
                  "after adept's fourth searched "
                  "route, on its tables, Crates partnership tables where only the 9s are wild and "
                  "nobody draws at will: the first six such rule sets drawn by seed 12010 on seeds "
                  "61710-61715 with adept and with adept:route=2, 1,000 deals each; the earlier row "
                  "on such a rule set, measured before that search, is adept:route=2's, and that "
                  "rule set again with adept on its own seed, 1,000 deals; after adept's third searched "
                  "route: --tables drawn:10:11920's tables on seeds 61640-61649 with adept, and its "
                  "three tables of that route with adept:route=2, 1,000 deals each; on "
                  "that route's tables, Crates partnership tables where a seat may draw at will: "
                  "the first six such rule sets drawn by seed 11900 on seeds 61620-61625 with adept "
                  "and with adept:route=2, 1,000 deals each; every earlier row on such a rule set, "
                  "measured before that search, is adept:route=2's, and each of those eleven rule "
                  "sets again with adept on its own seed, 1,000 deals each; after adept's second searched "
                  "route: --tables drawn:10:11820's tables on seeds 61540-61549 with adept, and its "
                  "two tables of that route with adept:route=2, 1,000 deals each; on that route's "
                  "tables, Crates partnership tables where only the 8s are wild and nobody draws "
                  "at will: the first six such rule sets drawn by seed 11810 on seeds 61520-61525 "
                  "with adept and with adept:route=2, 1,000 deals each; every earlier row on such a "
                  "rule set, measured before that search, is adept:route=2's, and each of those "
                  "eleven rule sets again with adept on its own seed, 1,000 deals each; after "
                  "adept's first searched route: "
                  "--tables drawn:10:11720's tables on seeds 61300-61309 with adept, 1,000 deals "
                  "each; on that route's tables, where no card is wild and nobody draws at will: "
                  "the first six such rule sets with "
                  "2 to 4 players drawn by seed 11710 on seeds 61260-61265 with adept and with "
                  "adept:route=2, 1,000 deals each; every earlier row on such a rule set, measured "
                  "before that search, is adept:route=2's, and each of those sixteen rule sets "
                  "again with adept on its own seed, 1,000 deals each; after sets 30 and 31's "
                  "routes: "
                  "--tables drawn:10:11610 on seeds 61100-61109 with adept, 1,000 deals each; "
                  "one Crates rule set with no wild card and draws at will for each player count "
                  "and partnership setting, drawn by seed 11502, on seeds 60910-60914, 300 deals "
                  "each, and two such two-player ones on seeds 60900 and 60901, 1,000 deals each; "
                  "after set 29's route: "
                  "--tables drawn:10:11420 on seeds 60820-60829 with adept, 1,000 deals each; every "
                  "earlier row on a Crazy Eights rule set with 3 players or more and unlimited "
                  "draws again on its own seed, 1,000 deals each; after set 28's route: "
                  "--tables drawn:10:11320 on seeds 60700-60709 with adept, 1,000 deals each; "
                  "with that route on "
                  "tables without a wild card: the ten such Crates rule sets drawn by "
                  "knob_space.no_wild_tables(11301, 10) on seeds 60400-60409, those with 5 "
                  "players before the route (not routed), the first six with 4 players in "
                  "partnerships drawn by no_wild_tables(11302, ...) on seeds 60420-60425, and "
                  "every earlier row on such a rule set with 3 or 4 players again on its own "
                  "seed, with its own spec, 1,000 deals each; after sets 26 and 27 were "
                  "routed, --tables drawn:10:11220 on seeds 60300-60309 with adept, and "
                  "adept:stock=4:dry=4 on its Crates tables on the same seeds, 1,000 deals "
                  "each; after set 27's route, "
                  "seed 11211's first ten Crates partnership rule sets without draws at will "
                  "on seeds 60260-60269 (with adept:stock=4:dry=4 on its 07 and 09 too), and every earlier row on such a rule set but the "
                  "presets again on its own seed, with its own spec, 1,000 deals each; "
                  "after set 26's route, "
                  "seed 11201's first ten three-player Crates rule sets without draws at will "
                  "on seeds 60210-60219, and every earlier row on such a rule set but the "
                  "presets again on its own seed, with its own spec, 1,000 deals each; "
                  "then --tables drawn:10:11104 "
                  "on seeds 60100-60109 with adept and with adept:stock=4:dry=4, 1,000 deals "
                  "each; after balance's strong player "
                  "became adept:stock=4:dry=4: it on the thirteen Crates preset tables on seeds "
                  "59980-59992, on classic:nine_wild=False, classic:seven_target=next and "
                  "classic:draw_when_able=True with 4 players on seeds 59996-59998, "
                  "classic:count_value=cards and classic:pressure_scope=seat on seeds 60000 "
                  "and 60001, the fair variant (docs/findings.md) on seed 60002, and on "
                  "--tables drawn:10:11003's tables 00, 01, 02, 03, 05 and 09 on their seeds, "
                  "1,000 deals each; after set 24 and adept:dry: "
                  "--tables drawn:10:11003 on seeds 59800-59809, then adept:stock=4 on its "
                  "tables 01, 02, 03, 05, 06 and 09 and adept:stock=4:dry=4 on 06 on the same "
                  "seeds, 1,000 deals each; after the two-player Crazy "
                  "Eights route: crazy-eights with 2 players on seed 59760, 2,000 deals, "
                  "seed 10990's tables 00 and 04 again on seeds 59100 and 59104, the first "
                  "seven two-player Crazy Eights sets drawn by seed 11002 on seeds "
                  "59740-59746, 1,000 deals each; after adept:dry: adept:dry=4 "
                  "and adept:dry=8 on seed 10990's table 07 on seed 59107, adept:dry=4 on "
                  "classic:remove_ranks=QK with 4 players on seed 43201, 1,000 deals each; "
                  "after the wider networks "
                  "across tables and the two-player Crates route: the league two-player "
                  "set on seed 59500, and --tables "
                  "drawn:10:10990 on seeds 59100-59109 (its four two-player Crates sets "
                  "again with the route on the same seeds), 1,000 deals each; after the "
                  "wide specialist of "
                  "serbian with 3 players: seed 59001, 2,000 deals; after the two-player "
                  "specialists with the inputs of my own hand: classic, league, serbian and "
                  "very-crazy-eights with 2 players on seeds 58020, 58013, 58030 and 58040, "
                  "2,000 deals each, classic with 5 on seed 58062, 1,000 deals, and serbian "
                  "with 4 in individual play on seed 58071, 2,000 deals; after the "
                  "round on Crates "
                  "partnerships: adept and adept:stock=4 on classic and serbian partnerships with "
                  "draw_when_able=true on seeds 54951 and 54952, adept on the first Crates "
                  "partnership set drawn by seed 10201 on seed 54950 and on the six Crates "
                  "partnership sets with draws at will drawn by seed 10301 on seeds 54983, 54960, "
                  "54985, 54986, 54987 and 54961 (adept:stock=4 on the fourth and sixth on the same "
                  "seeds), 1,000 deals each; after the round on the Crates family: "
                  "the Crates individual-play rows measured again on seeds 54840-54858, ten rule sets drawn "
                  "by seed 9931 on seeds 54860-54869 and adept:stock=4 on the serbian one of them on seed "
                  "54867, adept and adept:stock=4 on seed 9921's third Crates set on seed 54913, 1,000 "
                  "deals each; twelve drawn rule sets of the Crazy Eights "
                  "family after its round, seeds 54720-54731, 1,000 deals each; very-crazy-eights with 2 players "
                  "on seed 54590, 2,000 deals; adept:stock=4 and then adept with "
                  "draw_when_able=true on league, serbian and classic individual with 4 players, "
                  "seeds 54560-54562; adept:stock=4 on classic with "
                  "draw_when_able=true on seed 54510, on very-crazy-eights 4 players with "
                  "draw_rule=unlimited,hand_size=8,target_score=200,first_dealer=random,remove_ranks=QK "
                  "on seed 54524 and 3 players on 54521, then adept and then adept:stock=4 with "
                  "--tables drawn:10:5401 on seed 54520, 1,000 deals each; then "
                  "classic, league, serbian and very-crazy-eights with 2 players on "
                  "seeds 54130-54133, the four drawn knob sets below -5 on seeds 54150-54153, 2,000 deals "
                  "each, league with 3 on seed 51404, classic with 3 on seed 51403, league with 4 on seeds "
                  "53532 (individual) and 53541 (partnerships), classic with 4 in partnerships on "
                  "seed 54002, --tables three on seed 51100, then --tables every on seed 42100, "
                  "drawn:10:4201 on seed 42200, the four classic knob sets on seeds 43200-43203)")


def measured_rows(folders) -> list:
    """The rows of MEASURED_FILE from `crates compare --strategies adept,expert` folders: a
    --tables run's tables.csv (one row a table) or a single comparison's compare.json. A
    rule set measured in two folders keeps the first folder's row (give the newer
    measurement first). A folder of another pair, or of neither kind, is a CratesError."""
    import csv
    from pathlib import Path

    from crates_sim.errors import CratesError

    def row(who, rules, players, partnerships, seed, deals, diff, lo, hi):
        spec = measured_spec(who, Rules.from_spec(rules, int(players)))
        return dict(rules=rules, players=int(players), partnerships=bool(partnerships), seed=int(seed),
                    deals=int(deals), win_diff=round(float(diff), 1), win_lo=round(float(lo), 1),
                    win_hi=round(float(hi), 1), **({} if spec == "adept" else {"spec": spec}))

    def adept_against_expert(a, b) -> bool:  # adept, or adept with its search (adept:stock=4)
        return b == "expert" and _rule_reader(a) and not re.search(r"route\s*=\s*0", a)

    rows = []
    for folder in map(Path, folders):
        if (folder / "tables.csv").is_file():
            with open(folder / "tables.csv", newline="", encoding="utf-8") as f:
                table_rows = list(csv.DictReader(f))
            for r in table_rows:
                if not adept_against_expert(r["a"], r["b"]):
                    raise CratesError(f"{folder}: compares {r['a']} with {r['b']}, not adept with expert")
                rows.append(row(r["a"], r["rules"], r["players"], r["partnerships"] == "True", r["seed"],
                                r["deals"], r["win_diff"], r["win_lo"], r["win_hi"]))
        elif (folder / "compare.json").is_file():
            d = json.loads((folder / "compare.json").read_text(encoding="utf-8"))
            pair = next((q for q in d["pairs"] if adept_against_expert(q["a"], q["b"])), None)
            if pair is None:
                raise CratesError(f"{folder}: not a comparison of adept with expert")
            rows.append(row(pair["a"], d["rules_spec"], d["players"], d["partnerships"], d["seed"],
                            d["games"], 100 * pair["win_diff"], 100 * pair["win_lo"], 100 * pair["win_hi"]))
        else:
            raise CratesError(f"{folder}: no tables.csv or compare.json (a `crates compare` folder)")
    kept, seen = [], set()
    for r in rows:
        key = (r.get("spec", "adept"), _rules_key(Rules.from_spec(r["rules"], r["players"])))
        if key not in seen:
            seen.add(key)
            kept.append(r)
    return kept


def measured_text(rows) -> str:
    """MEASURED_FILE's text: what it is, then one row a line."""
    lines = ",\n".join("  " + json.dumps(r) for r in rows)
    return f'{{"about": {json.dumps(MEASURED_ABOUT)},\n "rows": [\n{lines}\n]}}\n'


def measured_path():
    """Where the package keeps MEASURED_FILE (what `crates rebuild adept-measured --write` rewrites)."""
    from pathlib import Path

    return Path(__file__).with_name(MEASURED_FILE)


@functools.cache
def _measured_rows() -> tuple:
    text = resources.files("crates_sim.analysis").joinpath(MEASURED_FILE).read_text(encoding="utf-8")
    return tuple(json.loads(text)["rows"])


def _table(preset: str, partnerships: bool) -> str:
    return f"{preset} {'partnerships' if partnerships else 'individual'}" if preset.startswith("classic") \
        else preset


def _rule_reader(spec: str) -> bool:
    """Whether `spec` is the adept that reads the rules (the shipped networks, net=0)."""
    name, *parts = str(spec).split(":")
    return name == "adept" and not any(p.replace(" ", "").startswith("net=") and
                                       p.split("=", 1)[1].strip() not in ("0", "0.0")
                                       for p in parts)


#: what a page and the console say when `held_across` held adept to one set of networks
HELD_NOTE = ("adept plays another set of networks by a route on some of these rule sets (one "
             "trained on that table alone, or on a Crazy Eights preset the networks before that "
             "family's round), or searches the dry stock (where no card is wild, or only the 8s "
             "or only the 9s in partnerships or with two players, or partners may draw at will, or "
             "two players may where only the 8s are wild), and not on others "
             "(docs/strategies.md, Routes), so it plays its own networks (adept:route=0) on every "
             "one of them, to compare them under one player")


def held_across(spec: str, rules_list) -> str:
    """`spec` as it should play every rule set of `rules_list` so that they are compared under
    one player: the rule-reading adept with its route unset plays a network trained on one
    table alone on the routed rule sets (docs/strategies.md, Routes) and the networks trained
    across tables elsewhere, and searches the dry stock on the rule sets of a searched route
    (`adept.searched_route_of`), so where the rule sets do not all route alike it is held to the
    latter (`adept:route=0`); any other spec, or one that sets its route, as given.
    rules_list None: the rule sets are not known in advance (a design search): held."""
    if not _rule_reader(spec) or re.search(r"route\s*=", str(spec)):
        return spec
    from crates_sim.strategies.adept import route_of, searched_route_of

    if rules_list is not None and len({(route_of(r), searched_route_of(r))
                                       for r in rules_list}) <= 1:
        return spec
    return f"{spec}:route=0"


def stronger_here(spec: str, rules) -> str:
    """The stronger adept a page names where `spec` is well below expert on `rules`: the
    stock search where a seat may draw beside a card in Crates and `spec` does not search
    it; else in Crates the search of every decision near an empty stock (dry) where `spec`
    does not make it; else the search near each hand's end."""
    from crates_sim.strategies.adept import dry_search_fires, stock_search_fires

    who = re.split(":(?:draw|war|hoard)=", measured_spec(spec, rules))[0]  # its search alone
    if stock_search_fires(rules) and who == "adept":
        return ("--strong adept:stock=4 searches as expert does the draws near an empty stock, "
                "where the network loses most (docs/strategies.md)")
    if dry_search_fires(rules) and "dry=" not in who:
        return ("--strong adept:dry=4 searches as expert does every decision near an empty "
                "stock, where few wild cards make the doubling pressures decide the game "
                "(docs/strategies.md)")
    return ("--strong adept:search=2 searches near each hand's end as expert does, closer to "
            "expert at more cost (docs/strategies.md)")


def validation(spec: str, rules) -> str:
    """Whether `spec` was fitted or validated on `rules`, in one phrase."""
    name = str(spec).split(":")[0]
    if _rule_reader(spec):
        from crates_sim.strategies.adept import (
            EIGHTS_UNLIMITED_SET,
            NO_WILD_AT_WILL_2P_SET,
            NO_WILD_AT_WILL_SET,
            NO_WILD_SET,
            PARTNERS_FIXED_SET,
            PARTNERS_SET,
            PRESETS_SET,
            THREE_PLAYER_NO_WILD_SET,
            THREE_PLAYER_SET,
            THREE_PLAYER_SHORT_SET,
            TWO_PLAYER_EIGHTS_SET,
            TWO_PLAYER_SET,
            TWO_PLAYER_SHORT_SET,
            route_of,
            searched_route_of,
            searched_spec,
        )

        measured = adept_measured(rules, spec)
        trained = ("trained with the rules as inputs on every preset at every player count and on "
                   "drawn knob sets; docs/strategies.md")
        if route_of(rules) is not None:
            if re.search(r"route\s*=\s*0", str(spec)):  # round 4's networks: the file measures the routed one
                return (f"{trained}; with route=0 it plays the networks trained across tables, whose "
                        f"figure on this rule set is in docs/strategies.md (Routes)")
            trained = {
                PRESETS_SET: "on this preset it plays round 4's networks (adept:net=12), trained "
                             "across tables, measured at least level with the later rounds here "
                             "(docs/strategies.md, Routes)",
                PARTNERS_SET: "where partners may draw at will it plays the partnership network "
                              "refitted on Crates partnership tables (adept:net=13), on average "
                              "stronger than round 4's there, not on every set "
                              "(docs/strategies.md, A round on Crates partnerships)",
                TWO_PLAYER_SET: "on two-player Crates rule sets it plays a network refitted on "
                                "two-player Crates tables (adept:net=23), stronger there than "
                                "the networks trained across tables, head to head "
                                "(docs/strategies.md, Wider networks across tables)",
                TWO_PLAYER_SHORT_SET: "on two-player Crates rule sets with a wild card and no "
                                      "draws at will it plays the two-player network "
                                      "refitted on such tables of 44 cards (adept:net=34), "
                                      "stronger there than adept:net=23's, head to head "
                                      "(docs/strategies.md, A network for two-player short "
                                      "decks)",
                TWO_PLAYER_EIGHTS_SET: "on two-player Crazy Eights rule sets it plays a network "
                                       "refitted on two-player Crazy Eights tables (adept:net=24), "
                                       "stronger there than the networks trained across tables, "
                                       "head to head (docs/strategies.md, Two-player Crazy Eights)",
                THREE_PLAYER_SET: "on three-player Crates rule sets without draws at will it "
                                  "plays a network refitted on such tables (adept:net=26), "
                                  "stronger there than the networks trained across tables, "
                                  "head to head (docs/strategies.md, Three players without "
                                  "draws at will)",
                THREE_PLAYER_SHORT_SET: "on three-player Crates rule sets of 44 or 48 cards "
                                        "with a wild card and no draws at will it plays the three-player network "
                                        "refitted on such tables of 44 cards "
                                        "(adept:net=35), stronger there than adept:net=26's, "
                                        "head to head (docs/strategies.md, A network for "
                                        "three-player short decks)",
                PARTNERS_FIXED_SET: "on Crates partnership rule sets without draws at will it "
                                    "plays the partnership network refitted on such tables "
                                    "(adept:net=27), on average stronger than round 4's there, "
                                    "not on every set (docs/strategies.md, Partnerships "
                                    "without draws at will)",
                THREE_PLAYER_NO_WILD_SET: "on three-player Crates rule sets with no wild "
                                          "card and no draws at will it plays a network "
                                          "refitted on such tables (adept:net=36), stronger "
                                          "there than adept:net=28's, head to head and "
                                          "against expert, and still below expert "
                                          "(docs/strategies.md, Three players without a "
                                          "wild card, two rounds)",
                NO_WILD_SET: "on Crates rule sets with 4 players, no wild card and no "
                             "draws at will it plays networks refitted on such tables "
                             "(adept:net=28), slightly stronger there than the ones before, "
                             "head to head, and still well below expert where the stock runs "
                             "dry in partnerships (docs/strategies.md, Tables without a wild "
                             "card)",
                EIGHTS_UNLIMITED_SET: "on Crazy Eights rule sets with 3 players or more and "
                                      "unlimited draws it plays a network refitted on such "
                                      "tables (adept:net=29), stronger there than the one "
                                      "trained across tables, head to head "
                                      "(docs/strategies.md, Crazy Eights with unlimited draws)",
                NO_WILD_AT_WILL_SET: "on Crates rule sets in individual play with 3 or 4 "
                                     "players, no wild card and draws at will it plays a "
                                     "network refitted on such tables (adept:net=30), "
                                     "stronger there than set 0's head to head (docs/"
                                     "strategies.md, Tables without a wild card where a "
                                     "seat may draw at will)",
                NO_WILD_AT_WILL_2P_SET: "on Crates rule sets with 2 players, no wild card "
                                        "and draws at will it plays a network refitted "
                                        "two rounds on such tables (adept:net=31), where "
                                        "the two-player network collapsed; still below "
                                        "expert on some (docs/strategies.md, Tables "
                                        "without a wild card where a seat may draw at "
                                        "will)",
            }.get(route_of(rules), "on this rule set it plays a network trained on it alone "
                                   "(docs/strategies.md, Routes)")
        who = measured_spec(spec, rules)
        searched = searched_route_of(rules)
        if who == "adept:route=2":
            trained += "; with route=2 it plays the networks alone, without its search of the dry stock"
        elif who != "adept":
            trained += f"; {who} searches some of its decisions as expert does"
        elif searched is not None and not re.search(r"route\s*=\s*0", str(spec)):
            trained += ("; on this rule set (no card wild, or only the 8s or only the 9s in partnerships, or only "
                        "the 9s with two players, and nobody "
                        "draws at will; or partners who may draw at will; or two players who may, only the "
                        "8s wild) it searches decisions "
                        f"near an empty stock cheaply, as {searched_spec(searched)} "
                        "(docs/strategies.md, A cheap search of the dry stock)")
        if measured is None:
            return (f"{trained}; measured against expert on every preset and player count and on "
                    f"knob sets (analysis/adept_measured.json), but not on this rule set"
                    + ("" if who == "adept" else f" as {who}"))
        diff, lo, hi, deals, seed = measured
        figure = (f"{diff:+.1f} [{lo:+.1f}, {hi:+.1f}] points of win rate against expert on this rule "
                  f"set ({deals:,} duplicate deals, seed {seed})")
        if hi < -WEAK_BELOW_EXPERT:
            return (f"{figure}: well below expert here, so a skill measure made with it likely "
                    f"understates what strong play gets under this rule set ({trained}); "
                    f"{stronger_here(spec, rules)}")
        return f"{figure} ({trained})"
    if name in RULE_FREE:
        return f"{RULE_FREE[name]}, fitted to no table"
    tables = TABLES.get(name)
    if tables is None:
        return "not validated on any table we know of (a user strategy)"
    where = ", ".join(_table(p, t) for p, t in tables)
    here = (rules.preset_name, bool(rules.partnerships))
    changed = [k for k in rules.differences() if k != "partnerships"]
    if here in tables and not changed:
        return f"validated on this rule set (its tables: {where})"
    what = f"this variant changes {', '.join(changed)}" if changed else f"{_table(*here)} is not one of them"
    return f"not validated on this rule set: fitted and measured on {where}; {what}"


def who_measured(strong: str, weak, rules_by_label: dict) -> list[str]:
    """One line per rule set: who measured skill there, and whether each was validated."""
    players = [strong, *[w for w in weak if w != strong]]
    out = []
    for label, rules in rules_by_label.items():
        parts = [f"{p}: {validation(p, rules)}" for p in players]
        out.append(f"**{label}**: " + "; ".join(parts) + ".")
    return out
