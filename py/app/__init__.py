"""Browser layer: storage, statistics, saves and the page glue around them."""
