"""PyScript entry point of the page (main thread). If the app cannot even
start, the player gets the shell's friendly "could not start" panel and the
details go to the console; never a dead page or a raw traceback."""

try:
    from app.browser import start

    start()
except Exception as error:  # noqa: BLE001 - the last line of defence
    import traceback

    import js

    js.console.error("".join(traceback.format_exception(error)))
    js.window.appShell.showError("load")
