"""The shared kernel: errors, chance, viewers, plain-data states and the Ruleset contract."""
