"""The page: the DOM side of the browser layer (js, pyodide). It draws the
view models of app.model and forwards the player's events to it."""
