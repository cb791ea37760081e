"""PyScript entry point of the page (main thread)."""

from app.browser import start

start()
