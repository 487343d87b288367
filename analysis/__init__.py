"""The analyses (installed as `crates_sim.analysis`; no command-line code here).

Datasets and blocks of games: `data`, `blocks`. Contests: `compare`, `tables` (one per
table), `tournament`, `ladder`. Rules: `balance`, `measures`, `knobs`, `design`,
`verdicts`, `glossary`, `players`. Parameters: `sweep`, `tune`. Decisions: `move_analysis`,
`loss_map`, `win_model`, `thumb`. Reports: `report`, `summary`, `render`, `stats`, and
`make demo`'s (`demo`).
"""
