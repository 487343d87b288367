"""One game at a time: the step engine (`step`), the PettingZoo environment (`env`, also
reached as `crates_sim.env`), Python agents at the table (`pyagent`, `pyagent_run`) and
their observation by name (`observation`), replays of logs as text (`replay`) and as a
page (`replay_html`), a log's decisions found by playing it again (`log_decisions`), and
stacked decks (`scenario`).
"""
