"""PyScript entry point of the page (main thread). If the app cannot even
start, the player gets the shell's friendly "could not start" panel and the
details go to the console; never a dead page or a raw traceback."""

try:
    import js

    js.performance.mark("python-main")  # where the start-up goes, for profiling (DevTools, Resource Timing)
    from app.page.app import start

    js.performance.mark("python-imported")
    start()
    js.performance.mark("python-started")
except Exception as error:  # noqa: BLE001 - the last line of defence
    import traceback

    import js

    js.console.error("".join(traceback.format_exception(error)))
    js.window.appShell.showError("load")
