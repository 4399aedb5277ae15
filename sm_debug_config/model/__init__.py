"""What users build: hook, collections, rules, actions, profiler, and the data behind them."""
