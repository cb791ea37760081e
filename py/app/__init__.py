"""The browser layer: ``model`` (pure: screen models, view models and what
they keep), ``views`` (each game's board as data, pure) and ``page`` (the
DOM: router, controllers, renderer, dialogs, engine client, harness)."""
