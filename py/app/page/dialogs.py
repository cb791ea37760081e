"""The game screen's dialogs: Embed (the iframe code), Share (a link with
the game in it), Export (the game as text or a file) and Import (text or a
file, opened for review). Share, Export and Import serve the analysis
board too, from its own buttons (``explore-share`` ...): its tree in the
link, the record with its variations, a record opened on the board. Each
shows text as the value of a form field, never as markup; what the text
says comes from the pure modules (embed.py, transfer.py through the screen
model, records.py).
"""

from __future__ import annotations

import asyncio
from typing import Any

import js
from pyodide.ffi import to_js

from ..model import embed, transfer
from ..model.review import IMPORT
from ..model.words import Msg
from . import dom
from .dom import by_id, on, tr
from .host import DialogHost

shell = js.window.appShell


def page_url() -> str:
    """The app's own address without its query or fragment: a link made
    inside an embed opens the full app, under whatever path it is served."""
    return str(js.location.origin) + str(js.location.pathname)


async def copy_text(text: str, field: Any, status: Any) -> None:
    """Copy to the clipboard; where that is not allowed, select the text so
    the player can copy it themselves."""
    try:
        await js.navigator.clipboard.writeText(text)
    except Exception:  # noqa: BLE001 - no clipboard here, or not allowed
        field.select()
        status.textContent = tr(Msg("embed.copy_failed"))
        return
    status.textContent = tr(Msg("embed.copied"))


def explore_on_screen(host: DialogHost) -> Any:
    """The analysis board, when it is the page on screen (else None)."""
    return host.explore if shell.page() == "explore" else None


def say(name: str, key: str) -> None:
    """A dialog's help text for what it serves now (a game, the analysis board)."""
    by_id(name).textContent = tr(Msg(key))


class Dialog:
    """A modal dialog of the page with a copy button and a close button,
    bound once (the page's dialogs live as long as the page); opened from
    the game's screen (``<name>-open``) or the analysis board
    (``explore-<name>``)."""

    def __init__(self, host: DialogHost, name: str, field: str) -> None:
        self.host = host
        self.name = name
        self.dialog = by_id(f"{name}-dialog")
        self.field = by_id(field)
        self.status = by_id(f"{name}-status")
        opener = by_id(f"{name}-open")
        on(opener, "click", lambda _e: self.open())
        explore_opener = by_id(f"explore-{name}")
        if dom.found(explore_opener):
            on(explore_opener, "click", lambda _e: self.open())
        on(by_id(f"{name}-close"), "click", lambda _e: self.dialog.close())
        copy = by_id(f"{name}-copy")
        if dom.found(copy):
            on(copy, "click", lambda _e: asyncio.ensure_future(dom.guard(self.copy())))
        opener.disabled = False

    def open(self) -> None:
        screen = self.host.screen
        if screen is None:
            return
        self.status.textContent = ""
        panel = explore_on_screen(self.host)
        if panel is not None:
            self.fill_explore(panel)
        else:
            self.fill(screen)
        self.dialog.showModal()
        self.field.select()

    def fill(self, screen: Any) -> None:  # pragma: no cover - each dialog's own
        raise NotImplementedError

    def fill_explore(self, panel: Any) -> None:  # pragma: no cover - those the analysis board opens
        raise NotImplementedError

    async def copy(self) -> None:
        await copy_text(str(self.field.value), self.field, self.status)


class EmbedDialog(Dialog):
    """The iframe code for the game on screen with its settings and the
    current language."""

    def __init__(self, host: DialogHost) -> None:
        super().__init__(host, "embed", "embed-code")

    def fill(self, screen: Any) -> None:
        params = embed.params_from_settings(screen.spec, screen.play.next_settings())
        url = embed.embed_url(page_url(), screen.game, params, str(shell.lang))
        title = f"{tr(Msg(f'games.{screen.game}.name'))} · {tr(Msg('app.name'))}"
        self.field.value = embed.iframe_code(url, title)


class ShareDialog(Dialog):
    """A link that opens the game on screen, every move in it."""

    def __init__(self, host: DialogHost) -> None:
        super().__init__(host, "share", "share-link")

    def fill(self, screen: Any) -> None:
        say("share-title", "share.title")
        say("share-help", "share.help")
        self.field.value = page_url() + transfer.share_fragment(screen.game, screen.review.share_payload())

    def fill_explore(self, panel: Any) -> None:
        from ..model import records

        say("share-title", "explore.share_title")
        say("share-help", "explore.share_help")
        self.field.value = page_url() + records.explore_fragment(panel.game, panel.payload())


class ExportDialog(Dialog):
    """The game on screen as text (Hex: SGF), to copy or to download."""

    def __init__(self, host: DialogHost) -> None:
        super().__init__(host, "export", "export-text")
        self.download = by_id("export-download")
        self.url: str | None = None

    def fill(self, screen: Any) -> None:
        say("export-title", "export.title")
        say("export-help", "export.help")
        self.offer(screen.review.export_text(), transfer.export_filename(screen.shown.state))

    def fill_explore(self, panel: Any) -> None:
        from ..model import records

        say("export-title", "explore.export_title")
        say("export-help", "explore.export_help")
        board = panel.board
        name, _, extension = transfer.export_filename(board.start).rpartition(".")
        self.offer(records.exploration_text(board.start, board.tree, board.setup), f"{name}-analysis.{extension}")

    def offer(self, text: str, filename: str) -> None:
        """The text in the field and as a file to download."""
        self.field.value = text
        if self.url is not None:
            js.URL.revokeObjectURL(self.url)
        options = to_js({"type": "text/plain;charset=utf-8"}, dict_converter=js.Object.fromEntries)
        self.url = str(js.URL.createObjectURL(js.Blob.new(to_js([text]), options)))
        self.download.href = self.url
        self.download.setAttribute("download", filename)


class ImportDialog:
    """Pasted text or a file, checked move by move; a game that passes
    opens for review, anything else says what is wrong and where, and
    nothing changes."""

    def __init__(self, host: DialogHost) -> None:
        self.host = host
        self.dialog = by_id("import-dialog")
        self.text = by_id("import-text")
        self.error = by_id("import-error")
        opener = by_id("import-open")
        on(opener, "click", lambda _e: self.open())
        on(by_id("explore-import"), "click", lambda _e: self.open())
        on(by_id("import-close"), "click", lambda _e: self.dialog.close())
        on(by_id("import-submit"), "click", lambda _e: self.submit())
        on(by_id("import-file"), "change", lambda event: asyncio.ensure_future(dom.guard(self.read_file(event))))
        opener.disabled = False

    def open(self) -> None:
        self.error.hidden = True
        explore = explore_on_screen(self.host) is not None
        say("import-title", "explore.import_title" if explore else "import.title")
        say("import-help", "explore.import_help" if explore else "import.help")
        self.dialog.showModal()
        self.text.focus()

    async def read_file(self, event: Any) -> None:
        files = event.target.files
        if not files.length:
            return
        self.text.value = await files.item(0).text()
        event.target.value = ""
        self.submit()

    def submit(self) -> None:
        """The text as a game to review, or on the analysis board (with
        its variations, a set-up position, a plain list of Hex moves or
        another site's link) when that is where Import was pressed."""
        from ..model import records

        explore = explore_on_screen(self.host) is not None
        try:
            read = records.read_exploration(str(self.text.value)) if explore else transfer.import_text(
                str(self.text.value))
        except transfer.TransferError as error:
            self.error.textContent = tr(error.message)
            self.error.hidden = False
            return
        self.error.hidden = True
        self.dialog.close()
        if isinstance(read, records.ExploreRecord):
            self.host.open_exploration(read)
        else:
            self.host.open_transferred(read, IMPORT)


def install(host: DialogHost) -> list[Any]:
    """Bind every dialog of the game screen (once, at start-up)."""
    return [EmbedDialog(host), ShareDialog(host), ExportDialog(host), ImportDialog(host)]
