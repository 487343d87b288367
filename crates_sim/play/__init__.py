"""One game at a time: the step engine (`step`), the PettingZoo environment (`env`, also
reached as `crates_sim.env`), Python agents at the table (`pyagent`, `pyagent_run`),
replays of logs as text (`replay`) and as a page (`replay_html`), and stacked decks
(`scenario`).
"""
