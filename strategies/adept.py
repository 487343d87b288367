"""`adept`: a fast learned player, a small neural network over what the seat can see,
trained on `expert`'s value of every option (issue 30).

Contract: for a card decision (play, count, play again) adept scores every legal option
with a one-hidden-layer network (ReLU, HIDDEN units) and plays the best (`temp` > 0:
samples softmax(score / temp) from its own stream). A score is in expert's units, the
option's expected points to the end of the hand for the mover (higher is better), so
`three` (points a 3 is worth keeping, > 0 hoards 3s, < 0 dumps them) is subtracted from
the score of an option that plays a 3, as expert does. Suit calls and last-card
announcements follow greedy (the longest suit; announce, `forget`). With search=K a card
decision taken while an opponent holds K cards or fewer is expert's search instead
(`samples` deals): a spec with search calls adept through `expert.adept_search_entry`,
which lives beside that search (docs/strategies.md, "Searching near the hand's end");
plain adept's adapter, `adept_entry`, is the network alone.

The network's input is two parts, so that the first layer's work on what every option
shares is done once per decision:
- the option's row (N_OPTION, OPTION_FEATURES): the apprentice's compact option
  features (`apprentice.option_rows` with crossed=False: the card's value and effect, 3s
  and wilds, hits on opponents and the partner, the suit it makes current, going out ...)
  and adept's (`extra_rows`: points, rank, the pressure its draws deal or take);
  most are 0, and the first layer skips them;
- the decision's row (N_CONTEXT, CONTEXT_FEATURES, `context_row`): the hand, the pile,
  the phase and the count, the hand number, each other seat's hand size, side and known
  voids, the 3s and wilds held, where the mover stands in the totals, and what each
  seat's next pressure costs.

hidden = relu(b1 + W_ctx · context + W_opt · option); score = w2 · hidden + b2.
One network per table kind (TABLES: the family, Crates or Crazy Eights, times
partnerships or not); on the tables ROUTES names, the shipped set plays the networks of
another set measured stronger there (`network_of`). The weights are data: `adept.json`
beside this module (rebuilt by `crates train --player adept`,
`crates_sim.runs.train_adept`), loaded once per process
into a float64 buffer (`weights_buffer`) whose address the engine table carries (slot
ENGINE_ADEPT), so the kernels are cached once whatever the weights. The buffer also holds
the scratch of the decision being made (a process plays one decision at a time), so a
decision allocates nothing. A table kind without weights (or no buffer) plays greedy.
"""

import json
import os
from contextlib import contextmanager
from importlib import resources

import numpy as np

from crates_sim.cards import (
    ACTION_DRAW,
    ACTION_PASS,
    COUNT_ADD,
    DRAW_UNLIMITED,
    E_COUNT,
    E_FIVE,
    E_NONE,
    E_QUEEN5,
    E_SKIP,
    E_WILD,
    E_WILD9,
    EFFECT,
    FAMILY_CRATES,
    FAMILY_EIGHTS,
    IN_DECK,
    K_COUNT_FORCED,
    K_DECK_N,
    K_DRAW_RULE,
    K_DRAW_WHEN_ABLE,
    K_FAMILY,
    K_FIRST_DEALER,
    K_HAND_SIZE,
    K_MAX_TURNS,
    K_NINE_COVERED,
    K_OUT,
    K_PARTNER,
    K_PENALTY,
    K_PLAYERS,
    K_PSCOPE_TEAM,
    K_SEVEN_ACROSS,
    K_SIX_EXEMPT,
    K_SPARE3,
    K_TARGET,
    K_UPCARD,
    O_COUNT,
    O_FAMILY,
    O_HAND,
    O_N_HANDS,
    O_PARTNER,
    O_PER_SEAT,
    O_PHASE,
    O_PLAYERS,
    O_RULES,
    O_SEAT,
    O_SEATS,
    O_STOCK_N,
    OBS_LEN,
    OS_TOTAL,
    OS_VOID_FREE,
    OS_VOIDS,
    PH_AGAIN,
    PH_ANNOUNCE,
    PH_CALL,
    PH_COUNT,
    PH_PLAY,
    R_8,
    R_9,
    RANK0_CARDS,
    RULES_LEN,
    SUIT0_CARDS,
)
from crates_sim.core.jit import kernel, leaf
from crates_sim.engine import engine_nb as E
from crates_sim.engine.bits import card_mask, popcount
from crates_sim.engine.indirect import call_decision, float_array_at
from crates_sim.engine.scoring_nb import held_value, score_crates_held
from crates_sim.errors import CratesError
from crates_sim.params import FORGET, Builtin, Param, slots
from crates_sim.strategies.apprentice import (
    CROSSED,
    N_BASE,
    N_COMPACT,
    option_rows,
    sample_scores,
)
from crates_sim.strategies.apprentice import FEATURES as _APPRENTICE_FEATURES
from crates_sim.strategies.builtin import announce_with, greedy_nb, longest_suit
from crates_sim.strategies.heuristic import hits, is_opponent
from crates_sim.view import (
    called_suit,
    current_rank,
    current_suit,
    effect,
    hand_size,
    is_action,
    is_wild,
    pressure_streak,
    seat_after,
    value,
)

#: the option's row: the apprentice's N_BASE option features, its crossed ones as they are
#: (the apprentice crosses them with its context; adept's hidden layer does that),
#: then adept's own (`extra_rows`): the hand's points after the option (3-covering
#: counted), the points it sheds, the rank played (one-hot), and what the option does
#: to the stock: the next pressure's cost to the side that takes one from the draws it
#: makes others take (+ an opponent's, - my partner's: `pressure_dealt`), the cost to me
#: of a draw on an empty stock (a draw option: `pressure_taken`), the stock after its
#: draws. Pressures double per seat or side (5, 10, 20, ...), so late in a game a
#: pressure is worth more than a hand: the teacher's widest margins are there. Then
#: whether a tame card makes current the suit the next seat (+1 an opponent, -1 my
#: partner), or my partner, called with its last wild (it held the most of it then). Last,
#: the chance that the next seat holds nothing to answer the card (`stuck_chance`: +, an
#: opponent; -, my partner), from the cards it could answer with that nobody has shown.
#: Then what my own hand can do after the option (`HAND_OPTION_FEATURES`): how many of the
#: cards I keep could follow the card it leaves on the pile (its suit or rank, or a wild;
#: a wild's suit is the one it would call; a draw or a pass leaves the pile's card), and
#: whether I keep cards and none of them could.
RANK_NAMES = "A23456789TJQK"
HAND_OPTION_FEATURES = ("my_followers", "left_stuck")
#: Then what the option does under these rules, whatever its rank (`rule_option_rows`):
#: the cards the next seat, the opponents and my partner draw if they cannot answer it,
#: whether it starts a count, is wild (any suit, or a suit of one colour), is a voluntary
#: draw (a draw where a card could be played: draw_when_able) or a pass, and how many
#: cards I draw taking it. The same option means the same inputs on every table.
RULE_OPTION_FEATURES = ("draws_next", "draws_opponents", "draws_partner", "starts_count",
                        "wild_any", "wild_colour", "voluntary_draw", "pass", "my_draws")
EXTRA_FEATURES = (("points_after", "points_shed") + tuple(f"rank_{r}" for r in RANK_NAMES)
                  + ("pressure_dealt", "pressure_taken", "stock_after", "next_called_suit",
                     "mate_called_suit", "next_stuck") + HAND_OPTION_FEATURES
                  + RULE_OPTION_FEATURES)
OPTION_FEATURES = (tuple(_APPRENTICE_FEATURES[:N_BASE]) + tuple(f"{c}_raw" for c in CROSSED)
                   + EXTRA_FEATURES)
N_OPTION = N_COMPACT + len(EXTRA_FEATURES)
#: the rules, as the decision's row sees them (`rule_context`, issue 38): the player count
#: (one-hot), partnerships, each Crates knob (one-hot where it has three values), the
#: Crazy Eights draw rule and hand size, the deck, how many cards are wild and count
#: cards (and whether counts grow by pips), and how far each side is from the target
#: score (Crazy Eights). A network trained across tables reads the table from these.
RULE_CONTEXT_FEATURES = (
    "players_2", "players_3", "players_4", "players_5", "players_6up", "partnerships",
    "count_forced", "seven_across", "nine_covered", "pressure_team", "penalty_forfeit",
    "penalty_immediate", "six_exempt", "upcard_as_played", "upcard_serbian",
    "out_may_return", "out_immediate", "spare_three", "draw_when_able", "draw_one",
    "draw_unlimited", "hand_dealt", "deck", "wild_cards", "count_cards", "count_pips",
    "target_left_me", "target_left_best",
)
#: what my hand holds, in the decision's row (`hand_context`): its cards of each suit (in
#: eighths) and of each rank (in quarters). Before these the network saw my hand only
#: through its options (issue 38: offline, on two-player league decisions, these and
#: HAND_OPTION_FEATURES took the held-out regret from 1.338 to 1.262 points a decision;
#: with 128 units they closed the two-player gap to expert: docs/strategies.md).
HAND_CONTEXT_FEATURES = (tuple(f"my_suit_{s}" for s in range(4))
                         + tuple(f"my_rank_{r}" for r in RANK_NAMES))
#: the decision's row (`context_row`), the same for every option of a decision
CONTEXT_FEATURES = (
    "hand", "min_opp_hand", "stock", "pile", "mate_hand",          # apprentice's CONTEXT
    "phase_play", "phase_count", "phase_again", "count", "hand_number", "last_hand",
    "options", "next1_hand", "next2_hand", "next3_hand", "next1_opp", "next2_opp",
    "next3_opp", "next1_voids", "next2_voids", "next3_voids", "threes_held", "wilds_held",
    "standing", "hand_points", "my_pressure", "next1_pressure", "next2_pressure",
    "next3_pressure", "stock_empty", "next1_voids_seen", "next2_voids_seen",
    "next3_voids_seen", "wilds_unseen",
) + HAND_CONTEXT_FEATURES + RULE_CONTEXT_FEATURES
N_CONTEXT = len(CONTEXT_FEATURES)
#: where the rules' inputs begin in the decision's row
RULE_CONTEXT_AT = N_CONTEXT - len(RULE_CONTEXT_FEATURES)
#: where my hand's inputs begin in the decision's row
HAND_CONTEXT_AT = RULE_CONTEXT_AT - len(HAND_CONTEXT_FEATURES)
#: where my hand's inputs begin in the option's row
HAND_OPTION_AT = N_COMPACT + EXTRA_FEATURES.index(HAND_OPTION_FEATURES[0])
#: where the option's rule inputs begin in its row
RULE_OPTION_AT = N_OPTION - len(RULE_OPTION_FEATURES)
#: the most hidden units a network may have (its block's width in the buffer); a network
#: with fewer (the first networks: 32, the networks trained across tables: 64) uses the
#: first ones and costs that much less (`crates train --hidden` goes up to it)
HIDDEN = 128
#: the hidden units of a network `crates train` fits from nothing (`--members K` plays K
#: such networks side by side: `ensemble`)
FIT_WIDTH = 32
#: the table kinds, each with a network of its own: index = 2 * family + partnerships
TABLES = ("crates-individual", "crates-partnerships", "eights-individual",
          "eights-partnerships")
N_TABLES = len(TABLES)
#: the sets of networks a process holds: `adept:net=V` plays set V. 0: the shipped
#: networks (WEIGHTS_FILE, or $CRATES_ADEPT_WEIGHTS), trained across tables with the
#: rules as inputs (issue 38); 1: the first ones (issue 30's findings at scale and
#: guided's first figures were measured with them); 2: the second (the pressure inputs,
#: one network of 32 units a table); 3: the third (two members averaged, trained on the
#: three tables of issue 30, shipped until issue 38); 4: the fourth (the rules as inputs,
#: rounds 1 and 2 of the training across tables, shipped until its round 3); 5, 6, 7:
#: the two-player specialists of classic, league and serbian, 8 league's with three
#: players, 9 classic's with three, 10 league's with four (partnerships and
#: individual play) and 11 classic's with four in partnerships, each trained on its
#: table alone (`crates train --player adept --preset P --players N`; 10 with --both
#: --value-floor, 11 with --value-floor); 12: the shipped set before its Crazy Eights
#: network was refitted on that family's drawn rule sets (`--tables eights --start`;
#: round 4 across tables, shipped until issue 38's last session); 13: the shipped set
#: with its partnership network refitted on Crates partnership tables
#: (`--tables partnerships --start ...`), which the shipped set plays on Crates
#: partnership tables with draws at will (WHERE_ROUTES); 14, 15, 16: the two-player
#: league, classic and serbian specialists with the inputs of my own hand and 128 units
#: (`--hidden 128`), which replaced sets 6, 5 and 7 there; 17: the same for Very Crazy
#: Eights with two players (set 12's network before); 18, 19: classic with five players
#: and serbian with four in individual play, the same way but one round of 4,000 games
#: (set 12's networks before); 20: serbian with three players, three rounds of 8,000
#: games (set 12's network before); 21: the shipped set before its Crates individual
#: network was widened to 128 units with the inputs of my own hand and refitted on that
#: family's tables (`--tables crates --start ... --hidden 128`); 22: set 13 with its
#: partnership network widened the same way and refitted on Crates partnership tables
#: (`--tables partnerships --start adept:net=13 --hidden 128`; not routed: its cost,
#: 2.2 us a turn there, and still 1.7-2.1 after `add_inputs`);
#: 23: set 15's network (classic with two
#: players) refitted on two-player Crates tables, presets and drawn rule sets (`--tables
#: two-player --start adept:net=15`), which the shipped set plays on every two-player
#: Crates table without a specialist (WHERE_ROUTES); 24: set 17's network (Very Crazy
#: Eights with two players) refitted the same way on two-player Crazy Eights tables
#: (`--tables two-player-eights --start adept:net=17`), which the shipped set plays on
#: every two-player Crazy Eights table without a route of its own; 25: set 0 with its Crates
#: individual network refitted on Crates individual play with 3 players or more where a
#: seat may draw at will (`--tables at-will --start adept:net=0`; not routed: against
#: expert it gained on some of those rule sets and lost on others, 41 points on one:
#: docs/strategies.md, "Drawing at will with 3 players or more"); 26: set 0 with its
#: Crates individual network refitted on three-player Crates tables without draws at will
#: (`--tables three-player --start adept:net=0`); 27: set 0 with its Crates partnership
#: network refitted on Crates partnership tables without draws at will (`--tables
#: partnerships-no-at-will --start adept:net=0`); 28: set 27 with its Crates individual
#: and partnership networks refitted on Crates tables with 3 players or more, no wild card
#: and no draws at will (`--tables no-wild --start adept:net=27`), which the shipped set
#: plays on such tables with 3 or 4 players (WHERE_ROUTES); 29: the shipped set with its
#: Crazy Eights network refitted on Crazy Eights tables with 3 players or more where a
#: seat draws as many cards as it likes (`--tables eights-unlimited --start adept:net=0`),
#: which the shipped set plays on those tables (WHERE_ROUTES); 30: the shipped set with
#: its Crates individual and partnership networks refitted on Crates tables with no wild
#: card where a seat may draw at will, every player count (`--tables no-wild-at-will
#: --start adept:net=0`, one round), which the shipped set plays on such tables in
#: individual play with 3 or 4 players (WHERE_ROUTES); 31: set 30 refitted one round more
#: on such tables (`--tables no-wild-at-will --start` set 30's file), which the shipped
#: set plays on such tables with 2 players (WHERE_ROUTES); 32: set 18 after two rounds
#: more on classic with 5 players (`--preset classic --players 5 --start adept:net=18`),
#: which the shipped set plays there (ROUTES); 33: set 11 widened to 128 units and refitted
#: one round on classic with 4 players in partnerships (`--preset classic --players 4
#: --partnerships --start adept:net=11 --hidden 128`), which the shipped set plays there
#: (ROUTES); 34: set 23 with its Crates individual network refitted two rounds on
#: two-player Crates tables of 44 cards with a wild card and no draws at will (`--tables
#: two-player-short-deck --start adept:net=23`); 35: set 26 the same way on three-player
#: ones (`--tables three-player-short-deck --start adept:net=26`); the shipped set plays
#: set 34 on every such two-player table with a wild card but the presets, set 35 on such
#: three-player tables of 44 and 48 cards (WHERE_ROUTES); 36: set 28 with its Crates
#: individual network refitted two rounds on three-player Crates tables with no wild card
#: and no draws at will (`--tables three-player-no-wild --start adept:net=28`), which the
#: shipped set plays on those tables (WHERE_ROUTES). A file names
#: its inputs: those it lacks get zero weights (`read_weights`), so older networks score
#: exactly as they did
NET_FILES = ("adept.json", "adept-1.json", "adept-2.json", "adept-3.json", "adept-4.json",
             "adept-classic-2p.json", "adept-league-2p.json", "adept-serbian-2p.json",
             "adept-league-3p.json", "adept-classic-3p.json", "adept-league-4p.json",
             "adept-classic-4p.json", "adept-5.json", "adept-6.json",
             "adept-league-2p-wide.json", "adept-classic-2p-wide.json",
             "adept-serbian-2p-wide.json", "adept-vce-2p-wide.json",
             "adept-classic-5p-wide.json", "adept-serbian-4p-wide.json",
             "adept-serbian-3p-wide.json", "adept-7.json", "adept-8.json",
             "adept-two-player.json", "adept-two-player-eights.json", "adept-at-will.json",
             "adept-three-player.json", "adept-partners-fixed.json", "adept-no-wild.json",
             "adept-eights-unlimited.json", "adept-no-wild-at-will.json",
             "adept-no-wild-at-will-2.json", "adept-classic-5p-2.json",
             "adept-classic-4p-wide.json", "adept-two-player-short.json",
             "adept-three-player-short.json", "adept-three-player-no-wild.json")
N_NETS = len(NET_FILES)
#: the set the presets without a specialist are routed to: round 4's networks, shipped
#: before the rounds on one family's drawn rule sets (`crates train --player adept
#: --tables eights|crates --start ...`)
PRESETS_SET = NET_FILES.index("adept-5.json")
#: the set whose partnership network was refitted on Crates partnership tables
#: (`crates train --player adept --tables partnerships`): stronger than round 4's where
#: partners may draw at will, weaker where they may not (docs/strategies.md, "A round on
#: Crates partnerships"). Set 22's, wider, is stronger still head to head there, but
#: costs 1.7-2.1 us a turn there even with `add_inputs` (above the bound of 2 on two of
#: the ten such tables measured): not routed ("Wider networks across tables")
PARTNERS_SET = NET_FILES.index("adept-6.json")
#: classic with 5 players' specialist: set 18 (adept-classic-5p-wide.json) after two more
#: rounds on that table (docs/strategies.md, "Classic with 5 players: two more rounds");
#: its games before are adept:net=18's
CLASSIC_5P_SET = NET_FILES.index("adept-classic-5p-2.json")
#: classic with 4 players in partnerships' specialist: set 11 (adept-classic-4p.json, 32
#: units) widened to 128 and refitted one round on that table (docs/strategies.md, "Classic
#: with 4 players in partnerships: the specialist widened"); its games before are
#: adept:net=11's
CLASSIC_4P_SET = NET_FILES.index("adept-classic-4p-wide.json")
#: the tables on which the shipped set (0) plays another set's networks because they were
#: measured stronger there: (preset, players, knobs, set). Each of those sets was trained
#: on its tables alone and beats the networks trained across tables there
#: (docs/strategies.md, "Routes"): issue 30's (set 3) on classic individual play and
#: Crazy Eights with 4 players (on classic partnerships set 3 was level with set 0), and
#: the specialists on their tables, and round 4's networks (set 12) on the other presets,
#: where they are at least level with the rounds on one family's drawn rule sets. A table
#: matches when its rules array equals the route's in every slot but ROUTE_IGNORES (who
#: deals first, the turn cap); a route to a set without a network of the table's kind is
#: not taken. `adept:route=0` never routes: set 0's own networks everywhere (the family
#: rounds' games; in Crates partnerships round 4's). Routes apply only while set 0 is the
#: shipped file (not with $CRATES_ADEPT_WEIGHTS), and not inside `networks(...)` (how
#: `crates train` plays each round's own networks).
ROUTES = (("classic", 4, {"partnerships": False}, 3), ("crazy-eights", 4, {}, 3),
          ("classic", 2, {}, 15), ("league", 2, {}, 14), ("serbian", 2, {}, 16),
          ("league", 3, {}, 8), ("classic", 3, {}, 9),
          ("league", 4, {"partnerships": False}, 10), ("league", 4, {"partnerships": True}, 10),
          ("classic", 4, {"partnerships": True}, CLASSIC_4P_SET),
          ("very-crazy-eights", 2, {}, 17), ("classic", 5, {}, CLASSIC_5P_SET),
          ("serbian", 4, {"partnerships": False}, 19), ("serbian", 3, {}, 20),
          # serbian with 4 in partnerships keeps set 0's own partnership network (round
          # 4's), which it played before set 27's route below (+0.5 [-3.2, +4.3] for set 27)
          ("serbian", 4, {"partnerships": True}, 0),
          # the other presets keep the networks measured on them before the rounds on one
          # family's drawn rule sets (Crazy Eights with 4: set 3, above; Crates
          # partnerships without a specialist: set 0's is round 4's; Crazy Eights with 2:
          # the two-player Crazy Eights round's, WHERE_ROUTES, +3.0 against set 12's there)
          *((name, n, {}, PRESETS_SET) for name in ("crazy-eights", "very-crazy-eights")
            for n in range(2, 8) if (name, n) not in (("crazy-eights", 4), ("crazy-eights", 2))))
ROUTE_IGNORES = (K_FIRST_DEALER, K_MAX_TURNS)
#: the set that plays two-player Crates rule sets without a specialist (docs/strategies.md,
#: "Wider networks across tables")
TWO_PLAYER_SET = NET_FILES.index("adept-two-player.json")
#: the same for two-player Crazy Eights rule sets
TWO_PLAYER_EIGHTS_SET = NET_FILES.index("adept-two-player-eights.json")
#: the set that plays Crates partnership rule sets without draws at will, but the presets
#: (docs/strategies.md, "Partnerships without draws at will")
PARTNERS_FIXED_SET = NET_FILES.index("adept-partners-fixed.json")
#: the set that plays three-player Crates rule sets without draws at will and without a
#: specialist (docs/strategies.md, "Three players without draws at will")
THREE_PLAYER_SET = NET_FILES.index("adept-three-player.json")
#: the set that plays Crates rule sets with 3 or 4 players, no wild card and no draws at
#: will (docs/strategies.md, "Tables without a wild card"; with 5 players set 0's own
#: network held its own head to head)
NO_WILD_SET = NET_FILES.index("adept-no-wild.json")
#: the set that plays Crazy Eights rule sets with 3 players or more and draw_rule=unlimited
#: (docs/strategies.md, "Crazy Eights with unlimited draws")
EIGHTS_UNLIMITED_SET = NET_FILES.index("adept-eights-unlimited.json")
#: the set that plays Crates rule sets in individual play with 3 or 4 players, no wild
#: card and draws at will (docs/strategies.md, "Tables without a wild card where a seat
#: may draw at will")
NO_WILD_AT_WILL_SET = NET_FILES.index("adept-no-wild-at-will.json")
#: the same with 2 players: set 30 after one round more (with 3 or 4 players that round
#: won on some such tables and lost on others, head to head)
NO_WILD_AT_WILL_2P_SET = NET_FILES.index("adept-no-wild-at-will-2.json")
#: the set that plays two-player Crates rule sets with a wild card and no draws at will:
#: set 23 with its Crates individual network refitted two rounds on such tables of 44
#: cards (docs/strategies.md, "A network for two-player short decks": head to head against
#: set 23, +3.3 on 16 fresh such tables of 44 cards, where set 23 was 4.9 points below
#: expert on average, and +2.9 and +3.3 on 16 of 48 and 16 of 52 cards)
TWO_PLAYER_SHORT_SET = NET_FILES.index("adept-two-player-short.json")
#: the same with three players: set 26 with its Crates individual network refitted two
#: rounds on three-player Crates tables of 44 cards with a wild card and no draws at will
#: (docs/strategies.md, "A network for three-player short decks": head to head against set
#: 26, +1.8 on 16 fresh such tables of 44 cards and +2.3 on 16 of 48; on 16 of 52 it was
#: level, so it is not routed there)
THREE_PLAYER_SHORT_SET = NET_FILES.index("adept-three-player-short.json")
#: the set that plays three-player Crates rule sets with no wild card and no draws at
#: will: set 28 with its Crates individual network refitted two rounds on such tables
#: (docs/strategies.md, "Three players without a wild card, two rounds": head to head
#: against set 28, both with DRY_SEARCH, +1.8 on 16 fresh such tables of 44 cards and +1.2
#: on 16 of 48; against expert, on ten fresh such tables, -6.6 on average where set 28 was
#: -7.7, and -3.5 on the eleven rows measured before, where it was -5.6)
THREE_PLAYER_NO_WILD_SET = NET_FILES.index("adept-three-player-no-wild.json")
#: a Crates deck where the 9s are the only wild rank: the 8s removed, the 9s in the deck
#: and wild (E_WILD9). In partnerships with no draws at will such a table plays
#: DRY_SEARCH (docs/strategies.md, "The cheap search on partnership tables where only the
#: 9s are wild": dry=3 gained most there, within the bound)
_NINES_ONLY_DECK = {IN_DECK + 4 * R_8: 0, EFFECT + 4 * R_9: E_WILD9, IN_DECK + 4 * R_9: 1}
#: the two ways a Crates deck holds a wild card: the 8s in the deck (the 9s wild or not),
#: or the 9s alone (_NINES_ONLY_DECK); a two-player table without draws at will, either
#: way, plays TWO_PLAYER_SHORT_SET with 2 players, every deck (but the presets, whose
#: specialists come first in ROUTES; the decks shorter than 44 cards that a user may ask
#: for were neither trained on nor measured: the random draws take out two ranks at most),
#: and THREE_PLAYER_SHORT_SET with 3 players on decks of 44 and 48 cards (on 16 fresh
#: 52-card tables it was level with set 26 head to head, so those keep set 26's games)
_WILD_DECKS = ({IN_DECK + 4 * R_8: 1}, _NINES_ONLY_DECK)
_WILD_NO_AT_WILL = (
    *(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 2, K_DRAW_WHEN_ABLE: 0, **deck},
       TWO_PLAYER_SHORT_SET) for deck in _WILD_DECKS),
    *(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 3, K_DRAW_WHEN_ABLE: 0, K_DECK_N: cards, **deck},
       THREE_PLAYER_SHORT_SET) for cards in (44, 48) for deck in _WILD_DECKS))
#: the two ways a Crates deck holds no wild card: the 8s removed (their first card's IN_DECK
#: slot), and the 9s not wild (E_NONE) or removed; a route names slot values, so each way
#: (and each player count) is a route of its own. _NO_WILD: such a table with 3 or 4
#: players and no draws at will, and the set that plays it (THREE_PLAYER_NO_WILD_SET with
#: 3 players, NO_WILD_SET with 4)
_NINES_NOT_WILD = ({EFFECT + 4 * R_9: E_NONE}, {IN_DECK + 4 * R_9: 0})
_NO_WILD_DECKS = tuple({IN_DECK + 4 * R_8: 0, **nines} for nines in _NINES_NOT_WILD)
_NO_WILD = tuple(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: players, K_DRAW_WHEN_ABLE: 0, **deck},
                  THREE_PLAYER_NO_WILD_SET if players == 3 else NO_WILD_SET)
                 for players in (3, 4) for deck in _NO_WILD_DECKS)
#: a Crates table in individual play with 2 to 4 players where a seat may draw at will and
#: no card is wild, and the set that plays it (with 5 players, and in partnerships, set 30
#: won on some such tables and lost clearly on others head to head: not routed)
_NO_WILD_AT_WILL = tuple(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: players, K_PARTNER: 0,
                           K_DRAW_WHEN_ABLE: 1, **deck},
                          NO_WILD_AT_WILL_2P_SET if players == 2 else NO_WILD_AT_WILL_SET)
                         for players in (2, 3, 4) for deck in _NO_WILD_DECKS)
#: routes by what a table does rather than by which table it is, taken after ROUTES:
#: ({rules-array slot: value}, set); a slot not named matches any value. Crates
#: partnership tables where a seat may draw at will play PARTNERS_SET's network, and
#: two-player Crates tables (the presets have specialists, in ROUTES) TWO_PLAYER_SET's
#: (TWO_PLAYER_SHORT_SET's where a card is wild and no seat may draw at will),
#: two-player Crazy Eights tables TWO_PLAYER_EIGHTS_SET's, other Crazy Eights tables with
#: draw_rule=unlimited EIGHTS_UNLIMITED_SET's, three-player Crates tables
#: where no seat may draw at will THREE_PLAYER_SET's (THREE_PLAYER_SHORT_SET's where a
#: card is wild and the deck holds 44 or 48 cards), and Crates partnership tables where
#: no seat may PARTNERS_FIXED_SET's; before those two, Crates tables with 3 or 4 players
#: without draws at will or a wild card THREE_PLAYER_NO_WILD_SET's with 3 and NO_WILD_SET's
#: with 4; first of all, Crates tables with
#: no wild card where a seat may draw at will, in individual play with 3 or 4 players,
#: NO_WILD_AT_WILL_SET's, and with 2 NO_WILD_AT_WILL_2P_SET's.
WHERE_ROUTES = (*_NO_WILD_AT_WILL,
                ({K_FAMILY: FAMILY_CRATES, K_PARTNER: 1, K_DRAW_WHEN_ABLE: 1}, PARTNERS_SET),
                *_WILD_NO_AT_WILL,
                ({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 2}, TWO_PLAYER_SET),
                ({K_FAMILY: FAMILY_EIGHTS, K_PLAYERS: 2}, TWO_PLAYER_EIGHTS_SET),
                ({K_FAMILY: FAMILY_EIGHTS, K_DRAW_RULE: DRAW_UNLIMITED}, EIGHTS_UNLIMITED_SET),
                *_NO_WILD,
                ({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 3, K_DRAW_WHEN_ABLE: 0}, THREE_PLAYER_SET),
                ({K_FAMILY: FAMILY_CRATES, K_PARTNER: 1, K_DRAW_WHEN_ABLE: 0}, PARTNERS_FIXED_SET))
#: adept's searched routes: (dry, samples, depth, margin), and the tables where the shipped
#: adept (net=0, route=1) searches as `adept:dry=D:samples=S:depth=T:margin=M` does
#: (`searched_spec`; margin 0, the parameter's default: every such decision searched). A
#: cheap search of the race to an empty stock: every card decision of two options or more
#: while the stock holds 3 cards or fewer, 8 deals, rollouts of 6 turns (docs/strategies.md, "A cheap
#: search of the dry stock where no card is wild": on such tables it is 6 to 16 points of
#: win rate closer to expert than the network alone, within the 2 us a turn bound).
DRY_SEARCH = (3, 8, 6, 0)
#: the two ways a Crates deck holds the 8s as its only wild rank: the 8s in the deck, and
#: the 9s not wild or removed
_EIGHTS_ONLY_DECKS = tuple({IN_DECK + 4 * R_8: 1, **nines} for nines in _NINES_NOT_WILD)
#: the search of Crates partnership tables where only the 8s are wild and no seat may draw
#: at will (docs/strategies.md, "The cheap search on partnership tables where only the 8s
#: are wild"): there the stock runs dry less often than without a wild card, and the
#: networks lose less, so a shallower threshold keeps most of the gain for less. Only the
#: options the network scores within 8 points of its choice are searched, which pays for
#: 12 deals instead of 8 at the same cost ("Twelve deals for the network's close calls":
#: the route's games before this are adept:dry=2:samples=8:depth=6's)
PARTNERS_EIGHTS_SEARCH = (2, 12, 6, 8)
#: PARTNERS_EIGHTS_SEARCH's tables on a short deck, by its size: (cards in the deck,
#: settings). The fewer the cards, the more often the stock runs dry and the search
#: fires, so the fewer deals fit the bound: with 12, a turn cost 2.11 us alone over
#: 1,000 games of a 44-card serbian table, and 2.2-2.6 over 200 games on 40 and 36 cards
#: (docs/strategies.md, "Fewer deals on short decks"). Each size takes the most deals
#: whose cost over 1,000 games stayed under 1.9 us in every pass. On four 44-card tables
#: 8 deals were as strong against expert as 12 (the same deals: a mean of -21.3 against
#: -21.7), and -0.7 head to head on 22 fresh ones; on 40 and 36 cards fewer deals lose
#: more (6 instead of 12: -4.8 against expert on two tables; 4: -4.6 on one). A
#: 4-player Crates deck holds 36 cards at the fewest (4 x 8 dealt and the upcard).
PARTNERS_EIGHTS_SHORT_SEARCHES = ((44, (2, 8, 6, 8)), (40, (2, 6, 6, 8)), (36, (2, 4, 6, 8)))
#: the search of Crates partnership tables where a seat may draw at will, every deck
#: (docs/strategies.md, "A gated search where partners may draw at will"): there the stock
#: runs dry so often that searching every decision near it costs 3-5 us a turn, so only
#: the decisions whose options the network scores within `margin` points of its choice are
#: searched, among those options alone, with 4 deals
PARTNERS_AT_WILL_SEARCH = (2, 4, 6, 8)
#: the same search plays two-player Crates tables where a seat may draw at will and only
#: the 8s are wild (docs/strategies.md, "The gated search with two players"): +4.1 head to
#: head on eight such tables, where deeper or wider settings gained 1 point more at up to
#: 2.0 us a turn
TWO_PLAYER_AT_WILL_SEARCH = PARTNERS_AT_WILL_SEARCH
#: the search of two-player Crates tables where only the 9s are wild (_NINES_ONLY_DECK)
#: and no seat may draw at will (docs/strategies.md, "A deeper search with two players
#: where only the 9s are wild"): the networks alone cost under 1 us a turn there, so a
#: deeper search fits: +3.6 head to head on eight such tables, DRY_SEARCH +2.6
TWO_PLAYER_NINES_SEARCH = (4, 12, 8, 0)
#: the tables of DRY_SEARCH: Crates with 2 to 4 players (with and without partnerships)
#: where no card is wild and no seat may draw at will (with 5 players it costs more than
#: 2 us a turn and gained nothing; where a seat may draw at will the stock runs dry so
#: often that it costs 3-5 us a turn, with a wild card too); then PARTNERS_EIGHTS_SEARCH's
#: (in individual play, where the 8s or the 9s alone are wild, it gained nothing), on a
#: deck of 44 cards or fewer with PARTNERS_EIGHTS_SHORT_SEARCHES' deals, then
#: PARTNERS_AT_WILL_SEARCH's, DRY_SEARCH on partnership tables where only the 9s are wild
#: (_NINES_ONLY_DECK), TWO_PLAYER_AT_WILL_SEARCH's, and TWO_PLAYER_NINES_SEARCH's
SEARCH_ROUTES = (*(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: players, K_DRAW_WHEN_ABLE: 0,
                     **deck}, DRY_SEARCH)
                   for players in (2, 3, 4) for deck in _NO_WILD_DECKS),
                 *(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 4, K_PARTNER: 1, K_DRAW_WHEN_ABLE: 0,
                     **size, **deck}, settings)
                   for size, settings in (*(({K_DECK_N: cards}, short)
                                            for cards, short in PARTNERS_EIGHTS_SHORT_SEARCHES),
                                          ({}, PARTNERS_EIGHTS_SEARCH))  # any other deck
                   for deck in _EIGHTS_ONLY_DECKS),
                 ({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 4, K_PARTNER: 1, K_DRAW_WHEN_ABLE: 1},
                  PARTNERS_AT_WILL_SEARCH),
                 ({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 4, K_PARTNER: 1, K_DRAW_WHEN_ABLE: 0,
                   **_NINES_ONLY_DECK}, DRY_SEARCH),
                 *(({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 2, K_DRAW_WHEN_ABLE: 1, **deck},
                    TWO_PLAYER_AT_WILL_SEARCH) for deck in _EIGHTS_ONLY_DECKS),
                 ({K_FAMILY: FAMILY_CRATES, K_PLAYERS: 2, K_DRAW_WHEN_ABLE: 0,
                   **_NINES_ONLY_DECK}, TWO_PLAYER_NINES_SEARCH))
#: one network's block of the buffer: W_opt (N_OPTION x HIDDEN), W_ctx (N_CONTEXT x
#: HIDDEN), b1 (HIDDEN), w2 (HIDDEN), b2; a narrower network's units beyond its width are 0
BLOCK = N_OPTION * HIDDEN + N_CONTEXT * HIDDEN + 2 * HIDDEN + 1
#: the buffer: [0] format, [1] N_OPTION, [2] N_CONTEXT, [3] HIDDEN, [4 + t] the hidden
#: units network slot t (= set * N_TABLES + table kind) uses, 0 when it has no weights;
#: the blocks from W0; the scratch
#: from X0 (the context row, the first layer's context part, each option's hidden units,
#: the option rows, the scores, a row's non-zero inputs, the routes' memo)
FORMAT = 3.0
N_SLOTS = N_NETS * N_TABLES
W0 = 4 + N_SLOTS
#: the routes (ROUTES), after the blocks: [ROUTES_AT] how many are active (0: none, as
#: when set 0 is not the shipped file), then each route's set of networks and how it
#: checks a table's rules array (`Rules.to_array`), in one of two layouts:
#: - a preset's table (ROUTES), which names every slot: -1, then the whole array, NaN in
#:   ROUTE_IGNORES' slots;
#: - a WHERE_ROUTES entry, which names a few: how many, then their (slot, value) pairs in
#:   slot order. Listing them, rather than the whole array with NaN in the open slots,
#:   spares each decision a pass over the open ones (measured on a two-player table
#:   such an entry routes, league without a wild card with draws at will: 2.05-2.09 ->
#:   1.91-1.94 us a turn, the same games). The dense layout stays for the presets, where
#:   it is the quicker of the two (classic partnerships: 0.62 us a turn, 0.67 with
#:   pairs, 0.64-0.65 before either).
ROUTE_LEN = 2 + 2 * RULES_LEN
MAX_ROUTES = 48
ROUTES_AT = W0 + N_SLOTS * BLOCK
#: after the routes: the address of the searched routes' search (`expert.adept_routed_search`,
#: 0 until they are set), how many searched routes are active, then each one's
#: SEARCH_SETTINGS (dry, samples, depth, margin: SEARCH_ROUTES) and its tables in a route's
#: layout
SEARCH_SETTINGS = 4
#: a searched route's settings, by their offsets from its start
SEARCH_DRY, SEARCH_SAMPLES, SEARCH_DEPTH, SEARCH_MARGIN = range(SEARCH_SETTINGS)
SEARCH_FN_AT = ROUTES_AT + 1 + MAX_ROUTES * ROUTE_LEN
SEARCHES_AT = SEARCH_FN_AT + 1
SEARCH_LEN = SEARCH_SETTINGS + ROUTE_LEN - 1
MAX_SEARCHES = 19
X0 = SEARCHES_AT + 1 + MAX_SEARCHES * SEARCH_LEN
MAX_OPTIONS = 64
CTX_AT = X0
HCTX_AT = CTX_AT + N_CONTEXT
Z_AT = HCTX_AT + HIDDEN
ROWS_AT = Z_AT + MAX_OPTIONS * HIDDEN
SCORES_AT = ROWS_AT + MAX_OPTIONS * N_OPTION
#: one row's non-zero inputs (`add_inputs`): their indices, then their values
NONZERO_AT = SCORES_AT + MAX_OPTIONS
#: the routes' memo (`_routes_memo`): whether it holds a table, the table kind it was
#: made for, the routed network slot (`network_of` for set 0 with routes on), the searched
#: route's index (`searched_route`, -1: none), then the rules array they were found for.
#: A game's rules do not change, so each decision but the first of a run of the same
#: rules compares one array rather than checking every route (measured on recorded
#: decisions: 0.27 us a decision on a Crazy Eights rule set no route takes, 0.57 on
#: classic with 4 players); every writer of the routes or the networks clears it
#: (`_forget_routes`)
MEMO_AT = NONZERO_AT + 2 * max(N_OPTION, N_CONTEXT)
MEMO_HELD, MEMO_KIND, MEMO_SLOT, MEMO_SEARCHED, MEMO_RULES = range(5)
BUFFER_LEN = MEMO_AT + MEMO_RULES + RULES_LEN
WEIGHTS_FILE = NET_FILES[0]
WEIGHTS_ENV = "CRATES_ADEPT_WEIGHTS"
#: standing: the totals' difference counted in this many points per unit, at most STANDING_CAP
STANDING_SCALE = 100.0
STANDING_CAP = 3.0
#: card points per unit of the points features
POINTS_SCALE = 100.0
#: the pressure features count a pressure's cost in POINTS_SCALE points, at most this
PRESSURE_CAP = 10.0
#: where the pressure and stock features sit in the option row
PRESSURE_DEALT = N_COMPACT + 2 + len(RANK_NAMES)
#: every card of the deck, as a mask
DECK_CARDS = (np.int64(1) << 52) - 1


def table_kind(rules) -> int:
    """The table kind (index into TABLES) of a Rules."""
    return 2 * (1 if rules.family == "eights" else 0) + (1 if rules.partnerships else 0)


# ================================================================ the decision's row
@leaf
def _total(obs, q):
    """Seat q's total (in partnerships its side's: partners share one)."""
    return obs[O_SEATS + q * O_PER_SEAT + OS_TOTAL]


@leaf
def hand_points(obs, held):
    """What the cards of the mask `held` would score at the hand's end: Crates' rules with
    3-covering (`scoring_nb.score_crates_held`), Crazy Eights' card values."""
    R = obs[O_RULES:]
    if obs[O_FAMILY] == FAMILY_EIGHTS:
        return held_value(R, held)
    points, _t, _c, _h = score_crates_held(R, held)
    return points


@leaf
def pressure_cost(obs, q):
    """What seat q's next pressure costs (5 * 2**streak points), in POINTS_SCALE points,
    at most PRESSURE_CAP."""
    k = min(pressure_streak(obs, q), 12)
    return min(5.0 * (1 << k) / POINTS_SCALE, PRESSURE_CAP)


@leaf
def draws_made(obs, card, phase, k):
    """How many cards playing `card` makes the seat k places after me draw, if it cannot
    answer: a count its running total (what a 2 or an A adds included), a 5 or a 7 or a
    classic jack one, the VCE queen of spades five (a skip draws none)."""
    if not hits(obs, card, phase, k):
        return 0
    e = effect(obs, card)
    if phase == PH_COUNT or e == E_COUNT:
        return obs[O_COUNT] + obs[O_RULES + COUNT_ADD + card]
    if e == E_QUEEN5:
        return 5
    if e == E_SKIP:
        return 0
    return 1


@leaf
def stock_rows(obs, card, phase, out, at):
    """The option's pressure_dealt, stock_after into out[at], out[at + 2]: the draws it
    makes the others take, in turn order, from the stock (obs[O_STOCK_N])."""
    stock = obs[O_STOCK_N]
    drawn = 0
    dealt = 0.0
    for k in range(1, obs[O_PLAYERS]):
        d = draws_made(obs, card, phase, k)
        if d == 0:
            continue
        if dealt == 0.0 and stock - drawn < d:  # this seat's draw finds the stock empty
            q = seat_after(obs, k)
            dealt = pressure_cost(obs, q) * (1.0 if is_opponent(obs, q) else -1.0)
        drawn += d
    out[at] = dealt
    out[at + 2] = max(stock - drawn, 0) / 20.0


@leaf
def wild_cards(obs):
    """The mask of the deck's wild cards (the rules make a rank wild)."""
    wild = np.int64(0)
    for r in range(13):
        if is_wild(obs, r * 4):
            wild |= RANK0_CARDS << (4 * r)
    return wild


@leaf
def unseen_cards(held, pile):
    """The cards nobody has shown me: not in my hand (the mask `held`) or the pile (they
    are in the stock or another hand)."""
    return DECK_CARDS & ~held & ~card_mask(pile, 0, pile.shape[0])


@leaf
def called_after(held, card):
    """The suit a wild `card` calls (greedy's call: the suit held most after it, ties the
    lowest)."""
    rest = held & ~(np.int64(1) << card)
    best = 0
    for s in range(1, 4):
        if popcount(rest & (SUIT0_CARDS << s)) > popcount(rest & (SUIT0_CARDS << best)):
            best = s
    return best


@leaf
def stuck_chance(obs, card, phase, unseen, wild, new_suit):
    """The chance that the next seat holds no card that answers `card` (which makes
    new_suit current; in a count, or a count card: another count card) if each of its
    cards were drawn at random from the `unseen` ones; a suit it showed void in with
    nothing drawn since counts as none of its cards."""
    n_unseen = popcount(unseen)
    if n_unseen == 0:
        return 0.0
    q = seat_after(obs, 1)
    if phase == PH_COUNT or effect(obs, card) == E_COUNT:
        answers = np.int64(0)
        for d in range(52):
            if obs[O_RULES + COUNT_ADD + d] > 0:
                answers |= np.int64(1) << d
    else:
        answers = wild | (RANK0_CARDS << (4 * (card >> 2)))
        base = O_SEATS + q * O_PER_SEAT
        if not (((obs[base + OS_VOIDS] >> new_suit) & 1) != 0 and obs[base + OS_VOID_FREE] == 0):
            answers |= SUIT0_CARDS << new_suit
    share = popcount(unseen & answers) / n_unseen
    return (1.0 - share) ** hand_size(obs, q)


@leaf
def rule_option_rows(obs, card, phase, n_options, out, at):
    """What the option `card` does under these rules (RULE_OPTION_FEATURES) into
    out[at:]: the cards each seat it hits draws if it cannot answer (the next seat, the
    opponents', my partner's, in fours), whether it starts a count, its kind of wild, a
    voluntary draw or a pass, and the cards I draw taking it."""
    if is_action(card):
        if card == ACTION_PASS:
            out[at + 7] = 1.0
            return
        # a draw: a count's cards, else one; voluntary where the rules let a seat that
        # could play draw instead (a forced draw is the only option: never scored)
        out[at + 8] = (obs[O_COUNT] if phase == PH_COUNT else 1) / 4.0
        if phase == PH_PLAY and n_options > 1 and obs[O_RULES + K_DRAW_WHEN_ABLE] != 0:
            out[at + 6] = 1.0
        return
    e = effect(obs, card)
    for k in range(1, obs[O_PLAYERS]):
        d = draws_made(obs, card, phase, k)
        if d == 0:
            continue
        if k == 1:
            out[at] = d / 4.0
        if is_opponent(obs, seat_after(obs, k)):
            out[at + 1] += d / 4.0
        else:
            out[at + 2] += d / 4.0
    if phase != PH_COUNT and e == E_COUNT:
        out[at + 3] = 1.0
    if e == E_WILD:
        out[at + 4] = 1.0
    elif e == E_WILD9:
        out[at + 5] = 1.0


@leaf
def rule_context(obs, out, at):
    """The rules' inputs of the decision's row (RULE_CONTEXT_FEATURES) into out[at:]."""
    R = O_RULES
    players = obs[O_PLAYERS]
    out[at + min(max(players, 2), 6) - 2] = 1.0
    out[at + 5] = 1.0 if obs[O_PARTNER] >= 0 else 0.0
    eights = obs[O_FAMILY] == FAMILY_EIGHTS
    out[at + 6] = 1.0 if obs[R + K_COUNT_FORCED] != 0 else 0.0
    if not eights:
        out[at + 7] = 1.0 if obs[R + K_SEVEN_ACROSS] != 0 else 0.0
        out[at + 8] = 1.0 if obs[R + K_NINE_COVERED] != 0 else 0.0
        out[at + 9] = 1.0 if obs[R + K_PSCOPE_TEAM] != 0 else 0.0
        penalty = obs[R + K_PENALTY]
        if penalty > 0:
            out[at + 9 + penalty] = 1.0  # forfeit, immediate
        out[at + 12] = 1.0 if obs[R + K_SIX_EXEMPT] != 0 else 0.0
        upcard = obs[R + K_UPCARD]
        if upcard > 0:
            out[at + 12 + upcard] = 1.0  # as_played, serbian
        rule = obs[R + K_OUT]
        if rule > 0:
            out[at + 14 + rule] = 1.0  # may_return, immediate
        out[at + 17] = min(max(obs[R + K_SPARE3] / 30.0, -3.0), 3.0)
    out[at + 18] = 1.0 if obs[R + K_DRAW_WHEN_ABLE] != 0 else 0.0
    if eights:
        draw = obs[R + K_DRAW_RULE]
        if draw == 0:
            out[at + 19] = 1.0
        elif draw == 2:
            out[at + 20] = 1.0
        out[at + 21] = obs[R + K_HAND_SIZE] / 8.0
    out[at + 22] = obs[R + K_DECK_N] / 52.0
    wild = 0
    counting = 0
    pips = 0
    for card in range(52):
        if is_wild(obs, card):
            wild += 1
        add = obs[R + COUNT_ADD + card]
        if add > 0:
            counting += 1
            if add > 1:
                pips = 1
    out[at + 23] = wild / 4.0
    out[at + 24] = counting / 4.0
    out[at + 25] = pips
    if eights:
        # how far the mover's side, and the opponent nearest it, are from the target
        target = max(obs[R + K_TARGET], 1)
        mine = _total(obs, obs[O_SEAT])
        best = 0
        for q in range(players):
            if is_opponent(obs, q) and _total(obs, q) > best:
                best = _total(obs, q)
        out[at + 26] = min(max((target - mine) / target, -1.0), 1.0)
        out[at + 27] = min(max((target - best) / target, -1.0), 1.0)


@leaf
def hand_option_rows(rest, suit, rank, wild, out, at):
    """What my hand can do after an option (HAND_OPTION_FEATURES) into out[at:]: the cards
    I keep (the mask `rest`) that could follow the card the option leaves on the pile (its
    `suit` or `rank`, or a wild: `wild`, the deck's wild cards), in eighths, and 1 if I
    keep cards and none could."""
    follow = wild
    if 0 <= rank < 13:
        follow |= RANK0_CARDS << (4 * rank)
    if 0 <= suit < 4:
        follow |= SUIT0_CARDS << suit
    followers = popcount(rest & follow)
    out[at] = followers / 8.0
    out[at + 1] = 1.0 if rest != 0 and followers == 0 else 0.0


@leaf
def hand_context(hand, out, at):
    """My hand's inputs of the decision's row (HAND_CONTEXT_FEATURES) into out[at:]."""
    for j in range(hand.shape[0]):
        d = hand[j]
        out[at + (d & 3)] += 1.0 / 8.0
        out[at + 4 + (d >> 2)] += 1.0 / 4.0


@leaf
def extra_rows(obs, hand, pile, options, out, base, F):
    """adept's own option features (EXTRA_FEATURES) into slots N_COMPACT.. of each row
    (row i at out[base + i * F]); returns the hand's points now and the share of the
    deck's wilds nobody has shown (the decision's row's wilds_unseen)."""
    held = card_mask(hand, 0, hand.shape[0])
    now = hand_points(obs, held)
    phase = obs[O_PHASE]
    stock = obs[O_STOCK_N]
    wild = wild_cards(obs)
    unseen = unseen_cards(held, pile)
    side = 1.0 if is_opponent(obs, seat_after(obs, 1)) else -1.0
    for i in range(options.shape[0]):
        at = base + i * F + N_COMPACT
        for j in range(N_OPTION - N_COMPACT):
            out[at + j] = 0.0
        c = options[i]
        press = base + i * F + PRESSURE_DEALT
        rule_option_rows(obs, c, phase, options.shape[0], out, base + i * F + RULE_OPTION_AT)
        mine_at = base + i * F + HAND_OPTION_AT
        if is_action(c):
            # a draw or a pass leaves the pile's card
            hand_option_rows(held, current_suit(obs), current_rank(obs), wild, out, mine_at)
            out[at] = now / POINTS_SCALE
            # a draw (a count's cards, else one) from a stock that has too few
            mine = obs[O_COUNT] if phase == PH_COUNT else 1
            if stock < mine:
                out[press + 1] = pressure_cost(obs, obs[O_SEAT])
            out[press + 2] = max(stock - mine, 0) / 20.0
            continue
        after = hand_points(obs, held & ~(np.int64(1) << c))
        out[at] = after / POINTS_SCALE
        out[at + 1] = (now - after) / POINTS_SCALE
        out[at + 2 + (c >> 2)] = 1.0
        stock_rows(obs, c, phase, out, press)
        new_suit = called_after(held, c) if is_wild(obs, c) else c & 3
        hand_option_rows(held & ~(np.int64(1) << c), new_suit, c >> 2, wild, out, mine_at)
        out[press + 5] = side * stuck_chance(obs, c, phase, unseen, wild, new_suit)
        if not is_wild(obs, c):
            q1 = seat_after(obs, 1)
            if called_suit(obs, q1) == (c & 3):
                out[press + 3] = 1.0 if is_opponent(obs, q1) else -1.0
            mate = obs[O_PARTNER]
            if mate >= 0 and called_suit(obs, mate) == (c & 3):
                out[press + 4] = 1.0
    return now, popcount(unseen & wild) / max(popcount(wild), 1)


@leaf
def context_row(obs, hand, options, c0, c1, c2, c3, c4, points, wilds_unseen, out, at):
    """The N_CONTEXT features of the decision (CONTEXT_FEATURES) into out[at:]; c0..c4
    are the five context scalars that `option_rows` returned, points and wilds_unseen
    what `extra_rows` returned."""
    for j in range(N_CONTEXT):
        out[at + j] = 0.0
    out[at + 0] = c0
    out[at + 1] = c1
    out[at + 2] = c2
    out[at + 3] = c3
    out[at + 4] = c4
    phase = obs[O_PHASE]
    out[at + 5] = 1.0 if phase == PH_PLAY else 0.0
    out[at + 6] = 1.0 if phase == PH_COUNT else 0.0
    out[at + 7] = 1.0 if phase == PH_AGAIN else 0.0
    out[at + 8] = min(obs[O_COUNT], 8) / 4.0
    n_hands = max(obs[O_N_HANDS], 1)
    out[at + 9] = min(obs[O_HAND], n_hands) / n_hands  # O_HAND: 1-based
    out[at + 10] = 1.0 if obs[O_HAND] >= n_hands else 0.0
    out[at + 11] = min(options.shape[0], 16) / 8.0
    players = obs[O_PLAYERS]
    for k in range(1, 4):
        if k >= players:
            break
        q = seat_after(obs, k)
        out[at + 11 + k] = hand_size(obs, q) / 8.0
        out[at + 14 + k] = 1.0 if is_opponent(obs, q) else -1.0
        base = O_SEATS + q * O_PER_SEAT
        voids = popcount(obs[base + OS_VOIDS]) / 4.0
        if obs[base + OS_VOID_FREE] == 0:
            out[at + 17 + k] = voids
        # the same fading with the cards it has drawn since (a seat that cannot play
        # draws, so "nothing drawn since" is rare: the first networks had only that)
        out[at + 29 + k] = voids / (1 + obs[base + OS_VOID_FREE])
    threes = 0
    wilds = 0
    for j in range(hand.shape[0]):
        d = hand[j]
        if is_wild(obs, d):
            wilds += 1
        elif (d >> 2) == 2:
            threes += 1
    out[at + 21] = threes / 4.0
    out[at + 22] = wilds / 4.0
    # where the mover's side stands: its total against the best other side's, > 0 ahead
    mine = _total(obs, obs[O_SEAT])
    lower = obs[O_FAMILY] != FAMILY_EIGHTS
    best = 0
    found = False
    for q in range(players):
        if not is_opponent(obs, q):
            continue
        theirs = _total(obs, q)
        if not found or (theirs < best if lower else theirs > best):
            best = theirs
            found = True
    diff = (best - mine) if lower else (mine - best)
    s = diff / STANDING_SCALE
    out[at + 23] = min(max(s, -STANDING_CAP), STANDING_CAP)
    out[at + 24] = points / POINTS_SCALE
    out[at + 25] = pressure_cost(obs, obs[O_SEAT])
    for k in range(1, 4):
        if k < players:
            out[at + 25 + k] = pressure_cost(obs, seat_after(obs, k))
    out[at + 29] = 1.0 if obs[O_STOCK_N] == 0 else 0.0
    out[at + 33] = wilds_unseen
    hand_context(hand, out, at + HAND_CONTEXT_AT)
    rule_context(obs, out, at + RULE_CONTEXT_AT)


@kernel
def fill_rows(obs, hand, pile, options, out):
    """Training's view of a decision: the context row into out[0:N_CONTEXT], then option
    i's row into out[N_CONTEXT + i * N_OPTION:], exactly as the kernel sees them."""
    c0, c1, c2, c3, c4 = option_rows(obs, hand, pile, options, out, N_CONTEXT, N_OPTION,
                                     False)
    points, wilds_unseen = extra_rows(obs, hand, pile, options, out, N_CONTEXT, N_OPTION)
    context_row(obs, hand, options, c0, c1, c2, c3, c4, points, wilds_unseen, out, 0)


# ================================================================ the decision
@leaf
def add_inputs(buf, units, row_at, n_inputs, w_at):
    """Adds a row's inputs (buf[row_at:row_at + n_inputs]) times their weights (input j's
    at w_at + j * HIDDEN) to `units` (a view of the buffer), input by input in their
    order, so that each unit's sum is the plain loop's (`units[h] += x * w[h]` for each
    input) bit for bit. The non-zero inputs (most are 0) are listed first, then added
    eight at a time in one pass over the units, so a unit is read and written once per
    eight inputs rather than once per input (measured on 3,035 recorded decisions of
    classic with 5 players and draws at will, scored in a compiled loop: 4.1 -> 3.1 us a
    decision, the same scores)."""
    width = units.shape[0]
    # the weights' offsets as int64s in the buffer's bytes (no float-to-int conversion
    # when they are read back)
    ats = buf[NONZERO_AT:NONZERO_AT + n_inputs].view(np.int64)
    xs = buf[NONZERO_AT + n_inputs:NONZERO_AT + 2 * n_inputs]
    nz = 0
    for j in range(n_inputs):
        # written whatever x is, kept only where it is not 0: no branch to mispredict
        # (measured on recorded decisions: 10-15% of a decision's scoring, the same list)
        x = buf[row_at + j]
        ats[nz] = w_at + j * HIDDEN
        xs[nz] = x
        nz += x != 0.0
    k = 0
    while k + 8 <= nz:
        w0 = buf[ats[k]:ats[k] + width]
        w1 = buf[ats[k + 1]:ats[k + 1] + width]
        w2 = buf[ats[k + 2]:ats[k + 2] + width]
        w3 = buf[ats[k + 3]:ats[k + 3] + width]
        w4 = buf[ats[k + 4]:ats[k + 4] + width]
        w5 = buf[ats[k + 5]:ats[k + 5] + width]
        w6 = buf[ats[k + 6]:ats[k + 6] + width]
        w7 = buf[ats[k + 7]:ats[k + 7] + width]
        x0, x1, x2, x3 = xs[k], xs[k + 1], xs[k + 2], xs[k + 3]
        x4, x5, x6, x7 = xs[k + 4], xs[k + 5], xs[k + 6], xs[k + 7]
        for h in range(width):
            t = units[h] + x0 * w0[h]
            t = t + x1 * w1[h]
            t = t + x2 * w2[h]
            t = t + x3 * w3[h]
            t = t + x4 * w4[h]
            t = t + x5 * w5[h]
            t = t + x6 * w6[h]
            units[h] = t + x7 * w7[h]
        k += 8
    # what is left, four, then two, then one at a time: a pass over the units each
    # (measured on recorded decisions, with the dots below: 3-8% of a decision's scoring)
    if k + 4 <= nz:
        w0 = buf[ats[k]:ats[k] + width]
        w1 = buf[ats[k + 1]:ats[k + 1] + width]
        w2 = buf[ats[k + 2]:ats[k + 2] + width]
        w3 = buf[ats[k + 3]:ats[k + 3] + width]
        x0, x1, x2, x3 = xs[k], xs[k + 1], xs[k + 2], xs[k + 3]
        for h in range(width):
            t = units[h] + x0 * w0[h]
            t = t + x1 * w1[h]
            t = t + x2 * w2[h]
            units[h] = t + x3 * w3[h]
        k += 4
    if k + 2 <= nz:
        w0 = buf[ats[k]:ats[k] + width]
        w1 = buf[ats[k + 1]:ats[k + 1] + width]
        x0, x1 = xs[k], xs[k + 1]
        for h in range(width):
            t = units[h] + x0 * w0[h]
            units[h] = t + x1 * w1[h]
        k += 2
    if k < nz:
        x0 = xs[k]
        w0 = buf[ats[k]:ats[k] + width]
        for h in range(width):
            units[h] += x0 * w0[h]


@leaf
def score_options(obs, hand, pile, options, buf, table, three, draw):
    """Every option's score into buf[SCORES_AT + i]; returns the best option's index.
    `three` points come off every option that plays a 3, and `draw` points go onto a
    voluntary draw (a draw offered beside a card at a play: `draw_bonus`)."""
    n = options.shape[0]
    c0, c1, c2, c3, c4 = option_rows(obs, hand, pile, options, buf, ROWS_AT, N_OPTION,
                                     False)
    points, wilds_unseen = extra_rows(obs, hand, pile, options, buf, ROWS_AT, N_OPTION)
    context_row(obs, hand, options, c0, c1, c2, c3, c4, points, wilds_unseen, buf, CTX_AT)
    wb = W0 + table * BLOCK
    width = int(buf[4 + table])  # the units this network uses (the others are 0)
    w_opt = wb
    w_ctx = w_opt + N_OPTION * HIDDEN
    b1 = w_ctx + N_CONTEXT * HIDDEN
    w2 = b1 + HIDDEN
    b2 = w2 + HIDDEN
    # the unit loops run over views of the buffer's parts rather than over buf at two
    # offsets: the compiler vectorises them then (measured on draw_when_able decisions:
    # the whole decision 5.6 -> 3.7 us in a loop, the same scores bit for bit, as each
    # unit's sum keeps its order)
    hctx = buf[HCTX_AT:HCTX_AT + width]
    out_w = buf[w2:w2 + width]
    # the first layer's part that every option shares, once
    for h in range(width):
        hctx[h] = buf[b1 + h]
    add_inputs(buf, hctx, CTX_AT, N_CONTEXT, w_ctx)
    # each option's hidden units (option i's at Z_AT + i * HIDDEN): the shared part plus
    # the option's non-zero features (most are 0)
    for i in range(n):
        z = buf[Z_AT + i * HIDDEN:Z_AT + i * HIDDEN + width]
        for h in range(width):
            z[h] = hctx[h]
        add_inputs(buf, z, ROWS_AT + i * N_OPTION, N_OPTION, w_opt)
    # the output, two options at a time: each score is its own chain of additions in the
    # units' order (the same score), and two chains run side by side. An inactive unit
    # adds 0 rather than taking a branch (about half the units are inactive,
    # unpredictably: measured on draw_when_able decisions, 3.84 -> 3.47 us a decision in a
    # loop); the same score, as s + 0 is s
    i = 0
    while i < n:
        za = buf[Z_AT + i * HIDDEN:Z_AT + i * HIDDEN + width]
        j = min(i + 1, n - 1)  # the pair's second (the first again when one is left)
        zb = buf[Z_AT + j * HIDDEN:Z_AT + j * HIDDEN + width]
        sa = buf[b2]
        sb = buf[b2]
        for h in range(width):
            a = za[h]
            b = zb[h]
            sa += (a if a > 0.0 else 0.0) * out_w[h]
            sb += (b if b > 0.0 else 0.0) * out_w[h]
        buf[SCORES_AT + i] = sa
        buf[SCORES_AT + j] = sb
        i += 2
    best = 0
    best_score = -1.0e300
    for i in range(n):
        s = buf[SCORES_AT + i]
        if three != 0.0 and buf[ROWS_AT + i * N_OPTION + 10] != 0.0:  # option feature 10: a 3
            s -= three
        if draw != 0.0 and options[i] == ACTION_DRAW and obs[O_PHASE] == PH_PLAY:
            s += draw
        buf[SCORES_AT + i] = s
        if s > best_score:
            best_score = s
            best = i
    return best


@leaf
def table_of(obs):
    """The network a decision is scored by (its index in TABLES): the family, then
    whether the seat has a partner."""
    return 2 * (1 if obs[O_FAMILY] == FAMILY_EIGHTS else 0) + (1 if obs[O_PARTNER] >= 0 else 0)


@leaf
def _route_matches(obs, buf, at):
    """Whether the game's rules (the view's copy) match the route at buf[at:] (ROUTE_LEN's
    layouts): every slot of a whole array but the open ones (NaN), or every listed
    (slot, value) pair. Most tables differ in the first slots: family, players,
    partnerships."""
    n = int(buf[at])
    if n < 0:
        for k in range(RULES_LEN):
            value = buf[at + 1 + k]
            if value == value and float(obs[O_RULES + k]) != value:  # NaN != NaN: open
                return False
        return True
    for j in range(n):
        k = int(buf[at + 1 + 2 * j])
        if float(obs[O_RULES + k]) != buf[at + 2 + 2 * j]:
            return False
    return True


@leaf
def _routed_slot(obs, buf, kind):
    """The network slot the routes give a decision of table kind `kind` (ROUTES, then
    WHERE_ROUTES; set 0's own where none takes the table). A route to a set without a
    network of the kind is passed over; a route to set 0 ends the search."""
    for r in range(int(buf[ROUTES_AT])):
        at = ROUTES_AT + 1 + r * ROUTE_LEN
        if _route_matches(obs, buf, at + 1):
            slot = kind + N_TABLES * int(buf[at])
            if slot == kind or buf[4 + slot] != 0.0:  # set 0, or a set with this kind
                return slot
    return kind


@leaf
def _searched_scan(obs, buf):
    """The index of the first searched route (SEARCH_ROUTES) whose tables hold the game's
    rules, else -1."""
    for r in range(int(buf[SEARCHES_AT])):
        if _route_matches(obs, buf, SEARCHES_AT + 1 + r * SEARCH_LEN + SEARCH_SETTINGS):
            return r
    return -1


@leaf
def _routes_memo(obs, buf):
    """The routes' memo (MEMO_AT) for this decision's rules and table kind, found by
    `_routed_slot` and `_searched_scan` where the memo holds other rules (or none). The
    rules are compared whole, with no early exit, so that the loop vectorises."""
    kind = table_of(obs)
    m = MEMO_AT
    # the rules as they are in the view (int64), in the buffer's bytes: comparing int64s
    # vectorises, converting them to floats does not (measured on recorded decisions)
    held = buf[m + MEMO_RULES:m + MEMO_RULES + RULES_LEN].view(np.int64)
    rules = obs[O_RULES:O_RULES + RULES_LEN]
    differ = buf[m + MEMO_HELD] == 0.0 or buf[m + MEMO_KIND] != kind
    if not differ:
        n_differ = 0
        for k in range(RULES_LEN):
            n_differ += rules[k] != held[k]
        differ = n_differ != 0
    if differ:
        buf[m + MEMO_HELD] = 0.0
        for k in range(RULES_LEN):
            held[k] = rules[k]
        buf[m + MEMO_KIND] = kind
        buf[m + MEMO_SLOT] = _routed_slot(obs, buf, kind)
        buf[m + MEMO_SEARCHED] = _searched_scan(obs, buf)
        buf[m + MEMO_HELD] = 1.0
    return m


@leaf
def network_of(obs, buf, net, route):
    """The network slot a decision is scored by: set `net`'s network for the table kind
    (`table_of`), or, for the shipped set (net 0) with `route` on, the set a route names
    when the game's table is the route's (`_routed_slot`, through the routes' memo)."""
    if route and net == 0 and buf.shape[0] >= BUFFER_LEN:
        return int(buf[_routes_memo(obs, buf) + MEMO_SLOT])
    return table_of(obs) + N_TABLES * net


@leaf
def searched_route(obs, buf):
    """The index of the searched route (SEARCH_ROUTES) whose tables hold the game's rules,
    else -1 (`_searched_scan`, through the routes' memo)."""
    if buf.shape[0] < BUFFER_LEN:
        return -1
    return int(buf[_routes_memo(obs, buf) + MEMO_SEARCHED])


@leaf
def routed_search_fires(obs, n_options, buf):
    """Whether the shipped adept's searched route (SEARCH_ROUTES) takes this decision: a
    card decision of two options or more on one of its tables while the stock holds its
    `dry` cards or fewer, or while an opponent holds no cards and play goes on (as
    `adept:dry=D` searches those: `near_hand_end` with search=0)."""
    if n_options < 2 or obs[O_PHASE] >= PH_CALL or buf[SEARCH_FN_AT] == 0.0:
        return False
    r = searched_route(obs, buf)
    if r < 0:
        return False
    return (obs[O_STOCK_N] <= buf[SEARCHES_AT + 1 + r * SEARCH_LEN + SEARCH_DRY]
            or near_hand_end(obs, 0))


@leaf
def near_hand_end(obs, cards):
    """Whether an opponent of the seat deciding in view `obs` holds `cards` cards or fewer.
    With `cards` 0 (adept's search=0) that is an opponent with no cards left while play
    goes on: adept's searching adapter (stock=S, dry=D: expert.adept_search_entry)
    searches those decisions too, and so do its searched routes (`routed_search_fires`),
    so that they play the same games."""
    for q in range(obs[O_PLAYERS]):
        if is_opponent(obs, q) and hand_size(obs, q) <= cards:
            return True
    return False


@leaf
def scores_with(buf, table, n):
    """Whether `buf` holds this version's networks with one for `table`, and n options fit
    its scratch rows (else adept plays greedy and guided searches alone)."""
    return not (buf.shape[0] < BUFFER_LEN or buf[1] != N_OPTION or buf[2] != N_CONTEXT
                or buf[3] != HIDDEN or buf[4 + table] == 0.0 or n > MAX_OPTIONS)


ADEPT_BUILTIN = Builtin(
    "a small neural network (64 hidden units a table kind, 128 in the Crates "
    "individual one and the newest specialists, which also read my hand) that "
    "reads the "
    "rules (player count, partnerships, every knob) and scores every option by "
    "what it does under them, trained on expert's values across every preset, "
    "player count, drawn knob sets and the tables where it was weakest "
    "(`crates train --player adept`; the Crazy Eights network then one round "
    "more on that family's drawn rule sets, and the Crates individual one two "
    "rounds more on that family's, then two with 128 units and inputs of my "
    "hand, the presets without a specialist routed "
    "to the networks before them; where Crates partners may draw at will a "
    "partnership network refitted on Crates partnership tables, net=13; on "
    "two-player Crates rule sets a network refitted on them, net=23 (net=34, "
    "refitted again on those of 44 cards without draws at will, where a card "
    "is wild and nobody draws at will), on "
    "two-player Crazy Eights rule sets, net=24, and on Crazy Eights rule sets "
    "with 3 players or more and unlimited draws, net=29; net=26, 27 and 28 "
    "on three-player, partnership and wild-card-free Crates rule sets without "
    "draws at will (net=35 on three-player ones of 44 or 48 cards where a card "
    "is wild, refitted on those of 44 cards; net=36 on three-player ones with "
    "no wild card, refitted on them); and net=30 and 31 on wild-card-free Crates rule sets in "
    "individual play with 3 or 4 and with 2 players and draws at will), "
    "where no card is wild and nobody may draw at will (Crates, 2 to 4 "
    "players) a cheap search of the dry stock as dry=3:samples=8:depth=6, "
    "and as dry=2:samples=12:depth=6:margin=8 on Crates partnership tables "
    "where only the 8s are wild and nobody may draw at will (samples=8, 6 and 4 on "
    "decks of 44, 40 and 36 cards), and on Crates partnership "
    "tables where a seat may draw at will as dry=2:samples=4:depth=6:margin=8, "
    "only the network's close calls, where it does not hoard (hoard=0; "
    "route=2: the networks alone), "
    "and on every Crates rule set where a seat may draw at will 25 points "
    "(10 with 5 players) onto a voluntary draw's score (draw=0: not), "
    "and on fourteen tables a network trained on "
    "that table or three (route); against expert: -1.2 to +9.8 points of "
    "win rate on every preset table with 2 to 6 players (1,000 fresh deals "
    "each, 2,000 on classic with 5 and with 4 in partnerships), above tuned "
    "and the apprentice on all 23, about -25 on classic with "
    "remove_ranks=QK, and with draws at will (its "
    "draw bonus) +95 on classic's and +99 on a league partnership rule "
    "set; 0.5-1.3 us a turn over whole games on every preset (1.1 on "
    "classic with 4 in partnerships, its 128-unit specialist net=33) and "
    "0.1-1.9 over 200 games on 148 of the 150 rule sets drawn by seeds 12470 "
    "to 12620 (1.9 on very-crazy-eights with 4, draw_rule=one and 8 cards, "
    "where nearly every turn is a choice to score, and on crazy-eights with 5 "
    "and 8 cards, 1.9-2.1 over 1,000 games); of the other two, classic with 3 "
    "players and no wild card 2.0 over 200 games and 1.7 over 1,000, and "
    "very-crazy-eights with 5, draw_rule=one and 7 cards 1.8-2.4 over 200 "
    "games and 1.8 over 1,000; "
    "where a seat may draw at will 0.1-1.5 with 3 players or more, where it "
    "draws unscored from a stock of 4 away from a hand's end (hoard; to the "
    "last card in partnerships without 5s), and 0.1 "
    "with 2, where it plays the pressure war unscored (war; draw=0: about 2; "
    "expert: 50-300); "
    "search=1 or 2 searches "
    "as expert does near a hand's end, 1 to 17 points of win rate closer to "
    "expert for 2-41 us a turn; stock=4 searches the draws near an empty "
    "stock where a seat may draw at will (Crates): -5.1 to +9.7 against "
    "expert on the four presets with 4 players and draw_when_able=true, "
    "where the network alone is -16 to -21, at 23-41 us a turn; dry=4 "
    "searches every decision near an empty stock (Crates): -57.1 to -9.7 and "
    "-25.7 to +1.0 against expert on two partnership rule sets with few wild "
    "cards, at 26 us a turn; stock=4:dry=4, balance's strong player, is "
    "+1.2 to +9.0 against expert on every Crates preset table, at 2-21 us a "
    "turn (docs/strategies.md)",
    {"temp": Param(0.0, 0.0, 100.0, "softmax temperature in points (0: always the best "
                                    "score; > 0: samples from its stream)"),
     "forget": FORGET,
     "three": Param(0.0, -1000.0, 1000.0, "card points a 3 is worth keeping: > 0 "
                                          "hoards 3s, < 0 dumps them"),
     "net": Param(0.0, 0.0, N_NETS - 1.0, "which networks: 0 the shipped ones (trained across "
                                 "tables, the rules as inputs), 1 the first "
                                 "(docs/findings.md's adept figures were measured "
                                 "with them), 2 the second (the pressure inputs, one "
                                 "network), 3 the third (one network per table: "
                                 "classic with and without partnerships, "
                                 "crazy-eights; shipped before the rules were inputs), "
                                 "4 the fourth (the rules as inputs, two rounds across "
                                 "tables, before the focus tables; shipped before "
                                 "round 4), 5-7 the two-player specialists of "
                                 "classic, league and serbian, 8 and 9 league's and "
                                 "classic's with 3 players, 10 league's with 4, 11 "
                                 "classic's with 4 in partnerships, 12 round 4's "
                                 "(shipped before the rounds on one family's drawn "
                                 "rule sets), 13 the shipped ones with the partnership "
                                 "network refitted on Crates partnership tables, "
                                 "14-16 the two-player specialists of league, "
                                 "classic and serbian with the inputs of my own hand "
                                 "and 128 units, 17 very-crazy-eights's with 2, "
                                 "18 and 19 classic's with 5 and serbian's with 4 "
                                 "in individual play the same way, 20 serbian's with "
                                 "3, 21 the shipped ones before the Crates individual "
                                 "network was widened to 128 units, 22 net=13 with "
                                 "its partnership network widened the same way, 23 "
                                 "net=15's refitted on two-player Crates rule sets, "
                                 "24 net=17's refitted on two-player Crazy Eights "
                                 "rule sets, 25 the shipped ones with the Crates "
                                 "individual network refitted on Crates tables of 3 "
                                 "players or more with draws at will (not routed), "
                                 "26 the shipped ones with the Crates individual "
                                 "network refitted on three-player Crates tables "
                                 "without draws at will, 27 the shipped ones with "
                                 "the partnership network refitted on Crates "
                                 "partnership tables without draws at will, 28 "
                                 "net=27 with both Crates networks refitted on "
                                 "Crates tables without a wild card or draws at will, "
                                 "29 the shipped ones with the Crazy Eights network "
                                 "refitted on Crazy Eights tables of 3 players or "
                                 "more with unlimited draws, 30 the shipped ones with "
                                 "both Crates networks refitted on Crates tables "
                                 "without a wild card where a seat may draw at will, "
                                 "31 net=30 after one round more there, 32 net=18 "
                                 "after two rounds more on classic with 5, 33 net=11 "
                                 "widened to 128 units and refitted on its table, "
                                 "34 net=23's refitted on two-player Crates tables "
                                 "of 44 cards with a wild card and no draws at will, "
                                 "35 net=26's refitted the same way on three-player "
                                 "ones",
                  whole=True),
     "route": Param(1.0, 0.0, 2.0, "1: with net=0, play networks trained on one table "
                                   "alone where they are stronger: issue 30's (net=3) "
                                   "on classic 4 players individual and crazy-eights 4 "
                                   "players, the specialists (net=14-17, 19, 20, 32, "
                                   "33, 8-10) on "
                                   "classic, league, serbian and very-crazy-eights with "
                                   "2 players, classic with 5, serbian with 3 and with 4 "
                                   "individual, league and "
                                   "classic with 3, league with 4 and classic with 4 "
                                   "in partnerships, and on the other presets round 4's "
                                   "networks (net=12), from before the rounds on one "
                                   "family's drawn rule sets, and on Crates partnership "
                                   "tables with draws at will net=13's, on two-player "
                                   "Crates rule sets net=23's (net=34's where a card "
                                   "is wild and nobody draws at will), on "
                                   "two-player Crazy "
                                   "Eights rule sets net=24's, on three-player Crates "
                                   "rule sets without draws at will net=26's (net=35's "
                                   "where a card is wild and the deck holds 44 or 48 "
                                   "cards), on Crates "
                                   "partnership rule sets without draws at will "
                                   "net=27's, on Crates rule sets with 4 players, "
                                   "no wild card and no draws at will net=28's "
                                   "(with 3, net=36's), and on Crazy Eights rule sets with 3 "
                                   "players or more and unlimited draws net=29's, and "
                                   "on Crates rule sets in individual play with 3 or 4 "
                                   "players, no wild card and draws at will net=30's, "
                                   "with 2 net=31's, and on Crates rule sets with 2 "
                                   "to 4 players, no wild card and no draws at will "
                                   "a cheap search of the dry stock (dry=3, samples=8, "
                                   "depth=6: SEARCH_ROUTES), with dry=2 on Crates "
                                   "partnership tables where only the 8s are wild "
                                   "and no draws at will (dry=3 where only the 9s "
                                   "are), and dry=2, samples=4, "
                                   "margin=8 on Crates partnership tables with draws "
                                   "at will and on two-player Crates tables with "
                                   "draws at will where only the 8s are wild, and "
                                   "dry=4, samples=12, depth=8 on two-player Crates "
                                   "tables where only the 9s are wild and nobody "
                                   "draws at will; 2: the same networks "
                                   "without that search (adept's games before it); 0: "
                                   "net's own networks everywhere",
                    whole=True),
     "search": Param(0.0, 0.0, 52.0, "search a card decision as expert does when an "
                                     "opponent holds this many cards or fewer (0: none "
                                     "but, with stock, dry or a searched route, those "
                                     "taken while an opponent has no cards left)",
                     whole=True),
     "samples": Param(60.0, 1.0, 100_000.0, "deals of the unseen cards per searched "
                                            "decision (with search or stock)", whole=True),
     "stock": Param(0.0, 0.0, 52.0, "in Crates, search a card decision as expert does when "
                                    "it offers a draw beside a card (draw_when_able, or "
                                    "a count one may decline) and the stock holds this "
                                    "many cards or fewer (0: never)",
                    whole=True),
     "dry": Param(0.0, 0.0, 52.0, "in Crates, search every card decision as expert does "
                                  "while the stock holds this many cards or fewer (0: "
                                  "never): where few wild cards run the stock dry again "
                                  "and again, who draws it dry takes the doubling "
                                  "pressures",
                  whole=True),
     "depth": Param(15.0, 0.0, 100_000.0, "turns each rollout of a searched decision "
                                          "(search, stock or dry) plays before it is cut "
                                          "and valued, as expert's depth (15, expert's; "
                                          "0: to the hand's end); its searched route "
                                          "plays 6, which halved the search's cost and "
                                          "kept most of its gain",
                    whole=True),
     "margin": Param(0.0, 0.0, 1.0e9, "with search, stock or dry: search only the options "
                                      "the network scores within this many points of its "
                                      "choice, and play its choice unsearched where no "
                                      "other is that close (0: every option of every such "
                                      "decision; its searched routes where partners, or "
                                      "two players, may draw at will: 8)"),
     "draw": Param(-1.0, -1.0, 1.0e9, "points added to a voluntary draw's score (a draw "
                                     "offered beside a card, draw_when_able): -1 the "
                                     "shipped choice, DRAW_AT_WILL_BONUS (25; 10 with 5 "
                                     "players) on Crates rule sets with draws at will "
                                     "with net=0 and route 0 or 1, else 0; 0 none (adept's games "
                                     "before it)"),
     "war": Param(-1.0, -1.0, 60.0, "the pressure war: from this many cards in hand, with "
                                    "the stock empty, play the card that makes an "
                                    "opponent (and no partner) draw, the highest-valued, "
                                    "unscored: -1 the shipped choice, WAR_HAND (10) where "
                                    "the draw bonus plays, else off; 0 off (adept's games "
                                    "before it)"),
     "hoard": Param(-1.0, -1.0, 1.0e9, "draw unscored at every play that offers a voluntary "
                                       "draw while the stock holds this many cards or "
                                       "more, while I hold 3 cards or more and no opponent "
                                       "2 or fewer: -1 the shipped choice, HOARD_STOCK (4) "
                                       "where the draw bonus plays with 3 players or more "
                                       "(1 in partnerships where no 5 makes every seat "
                                       "draw; and there no routed search), else off; 0 off "
                                       "(adept's games before it)")},
    adapter="adept_entry", adapter_when=(("search", "stock", "dry"), "expert.adept_search_entry"),
    calls=("expert.adept_routed_search",))
(ADEPT_TEMP, ADEPT_FORGET, ADEPT_THREE, ADEPT_NET, ADEPT_ROUTE, ADEPT_SEARCH,
 ADEPT_SAMPLES, ADEPT_STOCK, ADEPT_DRY, ADEPT_DEPTH, ADEPT_MARGIN, ADEPT_DRAW,
 ADEPT_WAR, ADEPT_HOARD) = slots(ADEPT_BUILTIN)

#: points the shipped adept (net=0; route 1, or 0) adds to a voluntary draw's score on Crates
#: rule sets where a seat may draw at will (`draw`'s default). Its networks, fitted to
#: expert's values, undervalue such a draw: drawing the stock down leaves the other side
#: to draw from an empty one and take the doubling pressures, a plan longer than expert's
#: rollouts see. Head to head, 25 points gained +46 to +100 points of win rate over
#: draw=0 on 21 such rule sets (docs/strategies.md, "Drawing at will pays").
DRAW_AT_WILL_BONUS = 25.0
#: the bonus with DRAW_AT_WILL_FIVE players or more (Crates seats at most 5), where 25
#: points was too many: on classic with draws at will, 5 players, 1,000 deals (seed 62650),
#: 10 points took adept from -8.2 to +8.6 points of win rate against expert, and 10 was
#: ahead of 25 on all eleven five-player rule sets with draws at will measured, by +5.0 to
#: +38.0 (docs/strategies.md, "Five players with draws at will: the plan stops paying").
DRAW_AT_WILL_BONUS_FIVE = 10.0
#: the player count from which DRAW_AT_WILL_BONUS_FIVE replaces DRAW_AT_WILL_BONUS (the
#: kernel's `draw_bonus` and Python's `draw_bonus_of` both read it; a test checks they agree)
DRAW_AT_WILL_FIVE = 5


@leaf
def draw_bonus(params, obs):
    """The points adept adds to a voluntary draw's score: `draw` where it is 0 or more,
    else (-1, its default) DRAW_AT_WILL_BONUS (DRAW_AT_WILL_BONUS_FIVE with 5 players) with
    the shipped networks (net=0, route 0 or 1: balance holds adept to route=0 across
    variants) on a Crates rule set with draw_when_able, and 0 elsewhere; route=2 plays
    adept's games from before its searched routes and this bonus."""
    given = params[ADEPT_DRAW]
    if given >= 0.0:
        return given
    if (params[ADEPT_NET] == 0.0 and params[ADEPT_ROUTE] != 2.0
            and obs[O_RULES + K_FAMILY] == FAMILY_CRATES
            and obs[O_RULES + K_DRAW_WHEN_ABLE] != 0):
        if obs[O_PLAYERS] >= DRAW_AT_WILL_FIVE:
            return DRAW_AT_WILL_BONUS_FIVE
        return DRAW_AT_WILL_BONUS
    return 0.0


#: the hand size from which the shipped adept, where its draw bonus plays, fights the
#: pressure war unscored (`war_choice`). Two such adepts (or any two hoarders) draw the
#: stock down and then hold many cards each with the stock empty: every card that makes
#: the other side draw gives it a pressure, and with two players the hand runs to the turn
#: cap (10,000 turns) with a pressure on nearly every turn. There the networks chose such a
#: card at 99.98% of 44,807 decisions (classic, 2 players, draws at will), at 11 options
#: and 8 us a decision. Head to head, 200 deals a table (docs/strategies.md, "The pressure
#: war"): from 15 cards, against war=0, +24.0 to +44.0 on four two-player rule sets and
#: +19.8 and +29.0 on two of four individual ones (0 in partnerships: in classic and
#: league a 7 goes across to the partner and a 5 hits every seat, so no card qualifies);
#: from 10 against 15, +6.0 on average on those four individual ones; 6 against 10, +1.4
#: (no CI clear of 0)
WAR_HAND = 10


@leaf
def war_choice(params, obs, hand, options):
    """The option the shipped adept plays unscored in a pressure war, else -1: with the
    stock empty and WAR_HAND cards or more in hand (or `war`'s; 0: never), where the draw
    bonus plays (`war`'s default), at a play (not a count), the highest-valued card whose
    play makes an opponent, and no partner, draw (a pressure, as the stock is empty) with no
    answer: not a card that starts a count."""
    war = params[ADEPT_WAR]
    if war == 0.0 or obs[O_STOCK_N] != 0 or obs[O_PHASE] == PH_COUNT:
        return -1
    if war < 0.0:
        if draw_bonus(params, obs) <= 0.0:
            return -1
        war = WAR_HAND
    if hand.shape[0] < war:
        return -1
    phase = obs[O_PHASE]
    best = -1
    best_value = -1
    for i in range(options.shape[0]):
        c = options[i]
        if is_action(c) or effect(obs, c) == E_COUNT:
            continue  # a count may be answered, and come back
        opponent = False
        partner = False
        for k in range(1, obs[O_PLAYERS]):
            if draws_made(obs, c, phase, k) > 0:
                if is_opponent(obs, seat_after(obs, k)):
                    opponent = True
                else:
                    partner = True
        if opponent and not partner and value(obs, c) > best_value:
            best = i
            best_value = value(obs, c)
    return best


#: the stock from which the shipped adept, where its draw bonus plays with 3 players or
#: more, draws unscored at every play that offers a voluntary draw (`hoard_choice`, within
#: its gates). There the networks drew at 84% of such plays while the stock held 11 cards
#: or more (classic, 3 players, draws at will), and scoring every option of a hoarder's
#: large hand cost 3.0 to 4.4 us a turn. Against expert, on nine such rule sets and the
#: same deals as before, drawing unscored from 4 cards (gated) moved adept by -2.6 to +8.0
#: points of win rate (mean +1.2), at 0.19-1.37 us a turn alone (docs/strategies.md,
#: "Hoarding unscored"); without the gates it lost 13 to 24 points (from 3 cards and from
#: 12), as it drew where the networks would have gone out
HOARD_STOCK = 4
#: the hoard's gates: it draws unscored only while I hold HOARD_HAND cards or more and no
#: opponent holds HOARD_NEAR cards or fewer; nearer a hand's end the networks choose (with
#: 1 card in hand they played at 14 of 19 such plays, going out; with 3 players or more
#: and draws at will, classic with 4, ten self-play games)
HOARD_HAND = 3
HOARD_NEAR = 2
#: the stock from which the shipped adept hoards instead of HOARD_STOCK in partnerships
#: where no card makes every other seat draw (the 5s removed, `every_seat_draws`).
#: There, drawing the stock down to its last card, then fighting the pressure war
#: (`war_choice`: a card that hits an opponent and not the partner), beat hoarding from 4
#: by a mean of +19.6 points of win rate head to head on 16 such rule sets, none below
#: -0.2 (from 2: +12.0), and cost less: 2.15 -> 1.50 us a turn over 1,000 games of seed
#: 12570's table 09. Where a 5 makes every seat draw, the partner too, it lost 15.6 to 49.0
#: points on 12 fresh such tables (mean -33.4), and in individual play it lost on most of
#: 52 tables with draws at will
#: (docs/strategies.md, "Hoarding to the last card where no 5 hits every seat")
HOARD_STOCK_PARTNERS_NO_FIVE = 1


@leaf
def every_seat_draws(obs):
    """Whether the deck holds a card whose play makes every other seat draw (a rank of
    effect E_FIVE, the 5s, in the deck; a rank's four cards share effect and deck)."""
    for r in range(13):
        if (obs[O_RULES + IN_DECK + 4 * r] != 0
                and obs[O_RULES + EFFECT + 4 * r] == E_FIVE):
            return True
    return False


@leaf
def hoard_stock(params, obs):
    """The stock from which adept draws unscored (`hoard_choice`; 0: never): `hoard` where
    it is 0 or more, else (-1, its default) HOARD_STOCK where the draw bonus plays with 3
    players or more (HOARD_STOCK_PARTNERS_NO_FIVE in partnerships where no card makes every
    other seat draw); 0 on rule sets where no seat may draw at will."""
    if obs[O_RULES + K_DRAW_WHEN_ABLE] == 0:
        return 0.0
    hoard = params[ADEPT_HOARD]
    if hoard >= 0.0:
        return hoard
    if obs[O_PLAYERS] >= 3 and draw_bonus(params, obs) > 0.0:
        if obs[O_PARTNER] >= 0 and not every_seat_draws(obs):
            return float(HOARD_STOCK_PARTNERS_NO_FIVE)
        return float(HOARD_STOCK)
    return 0.0


@leaf
def hoard_choice(params, obs, hand, options):
    """The voluntary draw's index where the shipped adept takes it unscored, else -1: at a
    play (not a count) that offers a draw beside a card, while the stock holds HOARD_STOCK
    cards or more (`hoard_stock`'s; 0: never), where the draw bonus plays with 3 players or
    more (`hoard`'s default), and while I hold HOARD_HAND cards or more and no opponent
    holds HOARD_NEAR or fewer."""
    hoard = hoard_stock(params, obs)
    if hoard == 0.0 or obs[O_PHASE] != PH_PLAY or options.shape[0] < 2:
        return -1
    if hand.shape[0] < HOARD_HAND or near_hand_end(obs, HOARD_NEAR):
        return -1
    if obs[O_STOCK_N] < hoard:
        return -1
    for i in range(options.shape[0]):
        if options[i] == ACTION_DRAW:
            return i
    return -1


@leaf
def unscored_choice(params, obs, hand, options):
    """The option the shipped adept plays without its networks' scores, else -1: the
    pressure war's card (`war_choice`), then the hoarder's draw (`hoard_choice`)."""
    war = war_choice(params, obs, hand, options)
    if war >= 0:
        return war
    return hoard_choice(params, obs, hand, options)


def draw_bonus_of(rules, net=0.0, route=1.0, draw=-1.0) -> float:
    """`draw_bonus` on `rules` for adept with these net, route and draw (in Python: what
    `analysis.players.measured_spec` needs to tell adept's games apart)."""
    if draw >= 0.0:
        return float(draw)
    if (net == 0.0 and route != 2.0 and rules.family == "crates"
            and rules.knobs.get("draw_when_able")):
        if rules.players >= DRAW_AT_WILL_FIVE:
            return DRAW_AT_WILL_BONUS_FIVE
        return DRAW_AT_WILL_BONUS
    return 0.0


def war_hand_of(rules, net=0.0, route=1.0, draw=-1.0, war=-1.0) -> float:
    """The hand size from which `war_choice` plays on `rules` for adept with these net,
    route, draw and war (0: never; in Python, as `draw_bonus_of`)."""
    if war >= 0.0:
        return float(war)
    return WAR_HAND if draw_bonus_of(rules, net, route, draw) > 0.0 else 0.0


def hoard_stock_of(rules, net=0.0, route=1.0, draw=-1.0, hoard=-1.0) -> float:
    """The stock from which `hoard_choice` draws on `rules` for adept with these net,
    route, draw and hoard (0: never; in Python, as `draw_bonus_of`)."""
    if not rules.knobs.get("draw_when_able"):
        return 0.0
    if hoard >= 0.0:
        return float(hoard)
    if rules.players >= 3 and draw_bonus_of(rules, net, route, draw) > 0.0:
        if rules.partnerships and not every_seat_draws(_rules_view(rules)):
            return float(HOARD_STOCK_PARTNERS_NO_FIVE)
        return float(HOARD_STOCK)
    return 0.0


@kernel
def adept_choice(params, obs, hand, pile, options, rng, buf):
    """adept's option index, with the weights and scratch of `buf` (the weights buffer;
    a table kind without weights: greedy). params: temp (0: the best score), forget, three,
    net (the set of networks, NET_FILES), route (ROUTES: `network_of`)."""
    phase = obs[O_PHASE]
    if phase == PH_ANNOUNCE:
        return announce_with(params[ADEPT_FORGET], rng)
    if phase >= PH_CALL:
        return longest_suit(hand, options)
    n = options.shape[0]
    if n == 1:
        return 0
    table = network_of(obs, buf, int(params[ADEPT_NET]), params[ADEPT_ROUTE] != 0.0)
    if not scores_with(buf, table, n):
        return greedy_nb(params, obs, hand, pile, options, rng)
    best = score_options(obs, hand, pile, options, buf, table, params[ADEPT_THREE],
                         draw_bonus(params, obs))
    temp = params[ADEPT_TEMP]
    if temp <= 0.0:
        return best
    return sample_scores(buf, SCORES_AT, 1, n, best, temp, rng)


def stock_search_fires(rules) -> bool:
    """Whether adept:stock=S can search anywhere under `rules` (expert.draw_near_empty): a
    Crates rule set where a draw is ever offered beside a card (draw_when_able, or a count
    one may decline). Elsewhere adept:stock=S plays plain adept's games exactly."""
    knobs = rules.knobs
    return rules.family == "crates" and bool(knobs.get("draw_when_able") or
                                             not knobs.get("count_forced", True))


def dry_search_fires(rules) -> bool:
    """Whether adept:dry=D can search anywhere under `rules` (expert.stock_near_empty):
    every Crates rule set (pressures); in Crazy Eights adept:dry=D plays adept's games."""
    return rules.family == "crates"


@leaf
def close_options(params, obs, hand, pile, options, buf, margin, close):
    """adept's choice at a card decision of two options or more (-1 where it plays greedy:
    no network for the table), and into `close` which options its network scores within
    `margin` points of that choice (the choice among them); returns (choice, how many)."""
    table = network_of(obs, buf, int(params[ADEPT_NET]), params[ADEPT_ROUTE] != 0.0)
    n = options.shape[0]
    if not scores_with(buf, table, n):
        return -1, n
    best = score_options(obs, hand, pile, options, buf, table, params[ADEPT_THREE],
                         draw_bonus(params, obs))
    floor = buf[SCORES_AT + best] - margin
    m = 0
    for i in range(n):
        close[i] = buf[SCORES_AT + i] > floor
        m += close[i]
    return best, m


@kernel
def adept_entry(G, seat, n_options):
    """adept's decision adapter: the engine calls it by address; the weights come by
    the address in the engine table of G (0: none, then it plays greedy). A spec with
    search, stock or dry > 0 plays `expert.adept_search_entry` instead
    (ADEPT_BUILTIN.adapter_when)."""
    params, obs, hand, pile, options, rng = E.decision_views(G, seat, n_options)
    address = G[E.ENG0 + E.ENGINE_ADEPT]
    if address == 0:
        return greedy_nb(params, obs, hand, pile, options, rng)
    buf = float_array_at(address, BUFFER_LEN)
    unscored = unscored_choice(params, obs, hand, options)
    if unscored >= 0:
        return unscored
    # where adept hoards it makes no routed search: with partners at will the gated
    # search of the stock run dry cost more than the hoard saves (docs/strategies.md,
    # "Hoarding unscored")
    if (params[ADEPT_ROUTE] == 1.0 and params[ADEPT_NET] == 0.0
            and hoard_stock(params, obs) == 0.0 and routed_search_fires(obs, n_options, buf)):
        # the searched route's search, by its address: plain adept compiles no search
        return call_decision(np.int64(buf[SEARCH_FN_AT]), G, seat, n_options)
    return adept_choice(params, obs, hand, pile, options, rng, buf)


# ================================================================ the weights
_BUFFER = []


def shipped_weights_path(net: int = 0):
    """The weights file of set `net` shipped in the package."""
    return resources.files("crates_sim.strategies").joinpath(NET_FILES[net])


def empty_net(width: int = 32) -> dict:
    """A network of zeros (it scores every option alike: the first legal option)."""
    return {"w_opt": np.zeros((N_OPTION, width)), "w_ctx": np.zeros((N_CONTEXT, width)),
            "b1": np.zeros(width), "w2": np.zeros(width), "b2": np.zeros(1)}


def net_width(net: dict) -> int:
    """A network's hidden units."""
    return int(np.asarray(net["w2"]).shape[0])


def pack(net: dict) -> np.ndarray:
    """One network as its BLOCK of the buffer (its units first, the rest of HIDDEN 0)."""
    width = net_width(net)
    shapes = {"w_opt": (N_OPTION, width), "w_ctx": (N_CONTEXT, width), "b1": (width,),
              "w2": (width,), "b2": (1,)}
    if not 0 < width <= HIDDEN or any(np.shape(net[k]) != shape for k, shape in shapes.items()):
        raise ValueError(f"a network of {width} hidden units must have the shapes {shapes} "
                         f"(at most {HIDDEN} units)")
    parts = []
    for key in ("w_opt", "w_ctx", "b1", "w2", "b2"):
        a = np.asarray(net[key], dtype=np.float64)
        if key != "b2":
            a = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, HIDDEN - width)])
        parts.append(a.ravel())
    return np.concatenate(parts)


def unpack(block: np.ndarray, width: int) -> dict:
    """The network of `width` units that `pack` wrote into `block`."""
    net = {}
    i = 0
    for key, shape in (("w_opt", (N_OPTION, HIDDEN)), ("w_ctx", (N_CONTEXT, HIDDEN)),
                       ("b1", (HIDDEN,)), ("w2", (HIDDEN,)), ("b2", (1,))):
        size = int(np.prod(shape))
        a = block[i:i + size].reshape(shape)
        net[key] = (a if key == "b2" else a[..., :width]).copy()
        i += size
    return net


def ensemble(*nets: dict) -> dict:
    """One network that scores the mean of these networks' scores (their hidden units side
    by side, each output weight divided by their number): an ensemble at one network's
    cost per unit."""
    k = len(nets)
    return {"w_opt": np.hstack([n["w_opt"] for n in nets]),
            "w_ctx": np.hstack([n["w_ctx"] for n in nets]),
            "b1": np.concatenate([n["b1"] for n in nets]),
            "w2": np.concatenate([np.asarray(n["w2"]) / k for n in nets]),
            "b2": np.asarray([sum(float(np.asarray(n["b2"])[0]) for n in nets) / k])}


def read_weights(path=None) -> dict:
    """The networks in a weights file (default: $CRATES_ADEPT_WEIGHTS, else the shipped
    one): {table kind name: net dict}. JSON {"option_features": [names],
    "context_features": [names], "hidden": H, "tables": {name: {"w_opt": [[..]], "w_ctx":
    [[..]], "b1": [..], "w2": [..], "b2": [..]}}, ...}; H (at most HIDDEN) is the widest
    network's hidden units, each network's own is its arrays'."""
    path = path or os.environ.get(WEIGHTS_ENV) or shipped_weights_path()
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
        opt_names = list(data["option_features"])
        ctx_names = list(data["context_features"])
        shape_ok = (set(opt_names) <= set(OPTION_FEATURES) and set(ctx_names) <= set(CONTEXT_FEATURES)
                    and 0 < int(data["hidden"]) <= HIDDEN)
        nets = {name: {k: np.asarray(v, dtype=np.float64) for k, v in net.items()}
                for name, net in data["tables"].items()}
        if shape_ok:
            nets = {name: _widen(net, opt_names, ctx_names) for name, net in nets.items()}
    except KeyError as exc:
        raise CratesError(f"adept weights {path}: cannot read them (no {exc} in the file: "
                          f"is it an adept weights file?)") from None
    except (OSError, ValueError, TypeError) as exc:
        raise CratesError(f"adept weights {path}: cannot read them ({exc})") from None
    if not shape_ok or any(name not in TABLES for name in nets) or not all(
            _packs(net) and net_width(net) <= int(data["hidden"]) for net in nets.values()):
        raise CratesError(f"adept weights {path}: made for another network (features or "
                          f"hidden units differ from this version's)")
    return nets


def _widen(net: dict, opt_names: list, ctx_names: list) -> dict:
    """A network whose file names the inputs opt_names / ctx_names, in this version's
    layout: each named input's weights in its row, zeros for the inputs it lacks (they
    add nothing to a unit: the network scores exactly as it did)."""
    if opt_names == list(OPTION_FEATURES) and ctx_names == list(CONTEXT_FEATURES):
        return net
    out = dict(net)
    for key, names, full in (("w_opt", opt_names, OPTION_FEATURES),
                             ("w_ctx", ctx_names, CONTEXT_FEATURES)):
        w = np.asarray(net[key], dtype=np.float64)
        if w.ndim != 2 or w.shape[0] != len(names):
            raise ValueError(f"{key} has {w.shape[0] if w.ndim else 0} rows for "
                             f"{len(names)} named inputs")
        wide = np.zeros((len(full), w.shape[1]))
        wide[[full.index(n) for n in names]] = w
        out[key] = wide
    return out


def _packs(net) -> bool:
    try:
        return pack(net).shape == (BLOCK,)
    except (ValueError, KeyError):
        return False


def write_weights(path, nets: dict, info=None) -> None:
    """Write networks {table kind name: net dict} and `info` (how they were made)."""
    data = {"option_features": list(OPTION_FEATURES), "context_features": list(CONTEXT_FEATURES),
            "hidden": max(net_width(net) for net in nets.values()),
            "tables": {name: {k: np.round(np.asarray(v, dtype=np.float64), 5).tolist()
                              for k, v in net.items()} for name, net in nets.items()},
            **(info or {})}
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, separators=(",", ":"))
        fh.write("\n")
    os.replace(tmp, path)


def weights_buffer() -> np.ndarray:
    """This process's weights buffer (loaded once: `read_weights`, set 0 from
    $CRATES_ADEPT_WEIGHTS or the shipped file, the other sets from theirs; no file: every
    table kind of that set plays greedy)."""
    if not _BUFFER:
        buf = np.zeros(BUFFER_LEN, dtype=np.float64)
        buf[0], buf[1], buf[2], buf[3] = FORMAT, N_OPTION, N_CONTEXT, HIDDEN
        _BUFFER.append(buf)
        for net in range(N_NETS):
            chosen = os.environ.get(WEIGHTS_ENV) if net == 0 else None
            path = chosen or shipped_weights_path(net)
            if chosen or os.path.exists(str(path)):
                set_weights(read_weights(path), net)
        if not os.environ.get(WEIGHTS_ENV):
            set_routes(ROUTES, WHERE_ROUTES, SEARCH_ROUTES)
    return _BUFFER[0]


def set_routes(routes, where=(), searched=()) -> None:
    """Route set 0's decisions on these tables ((preset, players, knobs, set), as ROUTES),
    then on the tables that hold these rules-array slots ({slot: value}, set), as
    WHERE_ROUTES) to those sets' networks from now on, and search its decisions on the
    tables of `searched` ({slot: value}, (dry, samples, depth)), as SEARCH_ROUTES; ()
    turns routing off."""
    from crates_sim.rules import Rules

    if len(routes) + len(where) > MAX_ROUTES:
        raise CratesError(f"at most {MAX_ROUTES} adept routes")
    if len(searched) > MAX_SEARCHES:
        raise CratesError(f"at most {MAX_SEARCHES} adept searched routes")
    buf = weights_buffer()
    _forget_routes(buf)
    buf[ROUTES_AT:X0] = 0.0
    arrays = [(net_set, Rules.preset(preset, players, **knobs).to_array())
              for preset, players, knobs, net_set in routes]
    arrays += [(net_set, _named_slots(slots_held)) for slots_held, net_set in where]
    for r, (net_set, array) in enumerate(arrays):
        at = ROUTES_AT + 1 + r * ROUTE_LEN
        buf[at] = net_set
        _write_tables(buf, at + 1, array)
    buf[ROUTES_AT] = len(arrays)
    for r, (slots_held, settings) in enumerate(searched):
        at = SEARCHES_AT + 1 + r * SEARCH_LEN
        buf[at:at + SEARCH_SETTINGS] = settings
        _write_tables(buf, at + SEARCH_SETTINGS, _named_slots(slots_held))
    buf[SEARCHES_AT] = len(searched)
    if searched:
        from crates_sim.engine.indirect import address_of
        from crates_sim.strategies.expert import adept_routed_search

        buf[SEARCH_FN_AT] = address_of(adept_routed_search)


def _forget_routes(buf) -> None:
    """Clear the routes' memo (MEMO_AT): the routes or the networks are about to change."""
    buf[MEMO_AT + MEMO_HELD] = 0.0


def _named_slots(slots_held) -> np.ndarray:
    """A rules array with these slots' values ({slot: value}), NaN (open) elsewhere."""
    array = np.full(RULES_LEN, np.nan)
    for slot, held in slots_held.items():
        array[slot] = held
    return array


def _write_tables(buf, at, array) -> None:
    """The tables a route takes (a rules array, NaN in its open slots) into buf[at:], in
    ROUTE_LEN's layouts: the whole array for a preset's table, else its (slot, value)
    pairs; ROUTE_IGNORES' slots are never checked."""
    array = array.astype(np.float64)
    array[list(ROUTE_IGNORES)] = np.nan
    checked = np.flatnonzero(~np.isnan(array))
    if 2 * len(checked) > RULES_LEN:  # a whole table's array: the dense layout
        buf[at] = -1
        buf[at + 1:at + 1 + RULES_LEN] = array
        return
    buf[at] = len(checked)
    buf[at + 1:at + 1 + 2 * len(checked):2] = checked
    buf[at + 2:at + 2 + 2 * len(checked):2] = array[checked]


def _rules_view(rules) -> np.ndarray:
    """A decision's view that holds only `rules` (its array, family and partnerships), for
    asking the kernel's rule-set functions in Python."""
    obs = np.zeros(OBS_LEN, dtype=np.int64)
    obs[O_RULES:O_RULES + RULES_LEN] = rules.to_array()
    obs[O_FAMILY] = FAMILY_EIGHTS if rules.family == "eights" else 0
    obs[O_PARTNER] = 2 if rules.partnerships else -1  # a partner's seat, or none
    return obs


def route_of(rules):
    """The set of networks the shipped adept (net=0, route=1) plays on `rules` by a route
    (ROUTES), or None where it plays its own: the kernel's `network_of` on a view that
    holds only the rules (`_rules_view`)."""
    obs = _rules_view(rules)
    slot = int(network_of(obs, weights_buffer(), 0, True))
    return None if slot < N_TABLES else slot // N_TABLES


def searched_route_of(rules, hoard=-1.0):
    """(dry, samples, depth, margin) of the search the shipped adept (net=0, route=1) makes
    on `rules` by a searched route (SEARCH_ROUTES), or None where it makes none: the
    kernel's `searched_route` on a view that holds only the rules. Where it hoards (with
    this `hoard`: `hoard_stock_of`) it makes none; hoard=0 gives the route's search, which
    adept:hoard=0 and adept:draw=0 make."""
    if hoard_stock_of(rules, hoard=hoard) > 0.0:
        return None
    obs = _rules_view(rules)
    buf = weights_buffer()
    r = int(searched_route(obs, buf))
    if r < 0:
        return None
    at = SEARCHES_AT + 1 + r * SEARCH_LEN
    return tuple(int(v) if v == int(v) else float(v) for v in buf[at:at + SEARCH_SETTINGS])


def searched_spec(settings) -> str:
    """The adept spec whose games a searched route with these settings (dry, samples, depth,
    margin) plays: "adept:dry=D:samples=S:depth=T", with ":margin=M" where M is not 0."""
    dry, samples, depth, margin = settings
    spec = f"adept:dry={dry:g}:samples={samples:g}:depth={depth:g}"
    return spec + (f":margin={margin:g}" if margin else "")


def weights_address() -> int:
    """The address of this process's weights buffer (for the engine table)."""
    return int(weights_buffer().ctypes.data)


def set_weights(nets: dict, net_set: int = 0) -> dict:
    """Play with networks {table kind name: net dict} from now on, as set `net_set`
    (kinds not named keep theirs; a net of None removes one: greedy). The buffer is
    rewritten in place, so engine tables already made see them. Returns the previous
    networks. The routes (ROUTES) stay as they are: `set_routes(())` turns them off."""
    buf = weights_buffer()
    old = current_weights(net_set)
    _forget_routes(buf)
    for name, net in nets.items():
        t = TABLES.index(name) + N_TABLES * net_set
        at = W0 + t * BLOCK
        if net is None:
            buf[4 + t] = 0.0
            buf[at:at + BLOCK] = 0.0
        else:
            buf[at:at + BLOCK] = pack(net)
            buf[4 + t] = net_width(net)
    return old


@contextmanager
def networks(nets: dict, net_set: int = 0, routes=()):
    """Play with networks {table kind name: net dict} as set `net_set`, and these routes
    (default: none), inside the block; the process's own networks and routes after it."""
    buf = weights_buffer()
    saved_routes = buf[ROUTES_AT:X0].copy()
    old = set_weights(nets, net_set)
    set_routes(routes)
    try:
        yield
    finally:
        set_weights(old, net_set)
        _forget_routes(buf)
        buf[ROUTES_AT:X0] = saved_routes


def current_weights(net_set: int = 0) -> dict:
    """The networks of set `net_set` this process plays with: {table kind name: net dict
    or None}."""
    buf = weights_buffer()
    out = {}
    for kind, name in enumerate(TABLES):
        t = kind + N_TABLES * net_set
        if buf[4 + t] == 0.0:
            out[name] = None
            continue
        out[name] = unpack(buf[W0 + t * BLOCK:W0 + (t + 1) * BLOCK], int(buf[4 + t]))
    return out


def option_values(obs, hand, pile, options, three: float = 0.0, net_set: int = 0,
                  route: bool = True, draw: float = 0.0):
    """adept's score of every option of a card decision with set `net_set`'s networks
    (points, higher is better: what `crates play --hint adept` shows), or None where it
    does not score (a call, an announcement, a single option, a table kind without a
    network)."""
    options = np.asarray(options, dtype=np.int64)
    phase = int(obs[O_PHASE])
    n = len(options)
    if phase not in (PH_PLAY, PH_COUNT, PH_AGAIN) or n < 2 or n > MAX_OPTIONS:
        return None
    buf = weights_buffer()
    table = int(network_of(np.asarray(obs, dtype=np.int64), buf, int(net_set), bool(route)))
    if buf[4 + table] == 0.0:
        return None
    score_options(obs, hand, pile, options, buf, table, float(three), float(draw))
    return buf[SCORES_AT:SCORES_AT + n].copy()
