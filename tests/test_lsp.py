"""The language server, driven as an editor drives it: `rulesc lsp` in a subprocess, JSON-RPC over its
stdin and stdout (pygls's client), a document opened and edited, and the answers read back.

Every wait has a timeout, so a server that hangs or never answers fails the test instead of hanging it.
"""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types as T
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
LEVEL1 = ROOT / "games" / "wheeler-level1.rules"
WAIT = 60  # seconds: only a bound against a hang, never a measure of speed


def position_of(text: str, needle: str, offset: int = 0, nth: int = 0) -> T.Position:
    """The protocol position of the `nth` occurrence of `needle` (plus `offset` characters)."""
    index = -1
    for _ in range(nth + 1):
        index = text.index(needle, index + 1)
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1) + offset
    return T.Position(line=line, character=column)


class Session:
    """A client talking to `rulesc lsp`, collecting the diagnostics it publishes."""

    def __init__(self):
        self.client = LanguageClient("rulesc-test", "1")
        self.published: asyncio.Queue = asyncio.Queue()

        @self.client.feature(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def _diagnostics(params: T.PublishDiagnosticsParams):
            self.published.put_nowait(params)

    async def start(self):
        await self.client.start_io(sys.executable, "-m", "rulesc", "lsp")
        result = await asyncio.wait_for(self.client.initialize_async(T.InitializeParams(
            process_id=None, root_uri=from_fs_path(str(ROOT)), capabilities=T.ClientCapabilities())), WAIT)
        self.client.initialized(T.InitializedParams())
        return result

    async def diagnostics_for(self, uri: str) -> list[T.Diagnostic]:
        while True:
            params = await asyncio.wait_for(self.published.get(), WAIT)
            if params.uri == uri:
                return params.diagnostics

    def open(self, path: Path, text: str | None = None) -> str:
        uri = from_fs_path(str(path))
        self.client.text_document_did_open(T.DidOpenTextDocumentParams(text_document=T.TextDocumentItem(
            uri=uri, language_id="rules", version=1, text=text if text is not None else path.read_text("utf-8"))))
        return uri

    def change(self, uri: str, text: str, version: int):
        self.client.text_document_did_change(T.DidChangeTextDocumentParams(
            text_document=T.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[T.TextDocumentContentChangeWholeDocument(text=text)]))

    async def hover(self, uri, pos):
        return await asyncio.wait_for(self.client.text_document_hover_async(T.HoverParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=pos)), WAIT)

    async def definition(self, uri, pos):
        return await asyncio.wait_for(self.client.text_document_definition_async(T.DefinitionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=pos)), WAIT)

    async def completion(self, uri, pos):
        return await asyncio.wait_for(self.client.text_document_completion_async(T.CompletionParams(
            text_document=T.TextDocumentIdentifier(uri=uri), position=pos)), WAIT)

    async def symbols(self, uri):
        return await asyncio.wait_for(self.client.text_document_document_symbol_async(T.DocumentSymbolParams(
            text_document=T.TextDocumentIdentifier(uri=uri))), WAIT)

    async def stop(self):
        await asyncio.wait_for(self.client.shutdown_async(None), WAIT)
        self.client.exit(None)
        process = self.client._server
        code = await asyncio.wait_for(process.wait(), WAIT) if process is not None else 0
        await asyncio.wait_for(self.client.stop(), WAIT)
        return code


def run(coro):
    return asyncio.run(asyncio.wait_for(coro, 5 * WAIT))


@pytest.mark.slow
def test_an_editor_session_over_stdio():
    async def session():
        s = Session()
        init = await s.start()
        caps = init.capabilities
        assert caps.hover_provider and caps.definition_provider and caps.document_symbol_provider
        assert "." in caps.completion_provider.trigger_characters
        try:
            text = FINANCE.read_text("utf-8")
            uri = s.open(FINANCE, text)
            assert [d for d in await s.diagnostics_for(uri)
                    if d.severity == T.DiagnosticSeverity.Error] == []

            # Diagnostics as you type: a misspelt name, then fixed again.
            broken = text.replace("pay circuit_income from bank to player", "pay circuit_incom from bank to player")
            s.change(uri, broken, 2)
            found = await s.diagnostics_for(uri)
            errors = [d for d in found if d.severity == T.DiagnosticSeverity.Error]
            assert [d.code for d in errors] == ["R0205"], found
            assert errors[0].range.start == position_of(broken, "circuit_incom from bank")
            assert "circuit_income" in errors[0].message  # the nearest name, in the help
            assert errors[0].tags is None
            # An unused declaration is faded rather than underlined: the registry marks R0404 `unnecessary`.
            s.change(uri, text.replace("param circuit_income", "param spare = $1\nparam circuit_income", 1), 3)
            (spare,) = [d for d in await s.diagnostics_for(uri) if d.code == "R0404" and "`spare`" in d.message]
            assert list(spare.tags) == [T.DiagnosticTag.Unnecessary] and spare.severity == T.DiagnosticSeverity.Warning
            s.change(uri, text, 4)
            assert [d for d in await s.diagnostics_for(uri) if d.severity == T.DiagnosticSeverity.Error] == []

            # Hover: a parameter's declaration, type and rulebook citation.
            h = await s.hover(uri, position_of(text, "circuit_income from bank", 3))
            value = h.contents.value
            assert "param circuit_income = $250" in value and "type: `money`" in value
            assert '§ "AN INCOME OF $250 EVERY TIME HIS MAN TRAVELS COMPLETELY AROUND THE BOARD"' in value
            # ... a field through an expression's type, and a row of a table.
            h = await s.hover(uri, position_of(text, "p.houses]", 3))
            assert "state field of `Lease`" in h.contents.value and "type: `count`" in h.contents.value
            h = await s.hover(uri, position_of(text, "set Wayback.owner", 5))
            assert "a `Lease`" in h.contents.value and "lease No. 1" in h.contents.value

            # Go to definition, in the same file.
            locs = await s.definition(uri, position_of(text, "pay circuit_income", 6))
            assert [loc.uri for loc in locs] == [uri]
            assert locs[0].range.start == position_of(text, "circuit_income = $250")

            # Completion: names and keywords; after `.` the fields of the thing's kind.
            items = (await s.completion(uri, position_of(text, "    pay circuit_income from bank", 4))).items
            labels = {i.label for i in items}
            assert {"circuit_income", "Wayback", "ChanceCards", "pay", "auction", "count"} <= labels
            probe = text.replace("    pay taxes from player to bank", "    pay Wayback.", 1)
            s.change(uri, probe, 5)
            await s.diagnostics_for(uri)
            items = (await s.completion(uri, position_of(probe, "pay Wayback.", len("pay Wayback.")))).items
            labels = {i.label for i in items}
            assert {"houses", "owner", "rents", "series", "value"} <= labels and "pay" not in labels
            s.change(uri, text, 6)
            await s.diagnostics_for(uri)

            # The outline: declarations with their children.
            symbols = await s.symbols(uri)
            names = [sym.name for sym in symbols]
            assert 'game "FINANCE (1932)"' in names and "circuit_income" in names and "turn" in names
            lease_kind = next(sym for sym in symbols if sym.name == "Lease" and sym.kind == T.SymbolKind.Class)
            assert "houses" in [c.name for c in lease_kind.children]
            turn = next(sym for sym in symbols if sym.name == "turn")
            assert [c.name for c in turn.children] == ["move"]
            assert sum(1 for sym in symbols if sym.name.startswith("scenario ")) >= 10

            # A variant: diagnostics from the buffer with its base resolved; definition into the base.
            level1 = LEVEL1.read_text("utf-8")
            uri1 = s.open(LEVEL1, level1)
            assert [d for d in await s.diagnostics_for(uri1) if d.severity == T.DiagnosticSeverity.Error] == []
            locs = await s.definition(uri1, position_of(level1, "discard from WheelerDealer", 14))
            base = (ROOT / "games" / "wheeler.rules").read_text("utf-8")
            assert [loc.uri for loc in locs] == [from_fs_path(str(ROOT / "games" / "wheeler.rules"))]
            assert locs[0].range.start.line == position_of(base, "deck WheelerDealer").line
            # The buffer is what is checked, not the file on disk.
            s.change(uri1, level1.replace("remove phase bump", "remove phase bumpp"), 2)
            found = await s.diagnostics_for(uri1)
            assert [d.code for d in found] == ["R0510"] and "bump" in found[0].message
        finally:
            code = await s.stop()
        assert code == 0

    run(session())


def test_a_file_that_does_not_parse_gets_its_syntax_errors_and_the_server_keeps_answering(tmp_path):
    path = tmp_path / "broken.rules"

    async def session():
        s = Session()
        await s.start()
        try:
            uri = s.open(path, 'game "X":\n    players: 2 to = 4\n\nparam fee = $10\n')
            found = await s.diagnostics_for(uri)
            assert found and found[0].code == "R0101" and found[0].range.start.line == 1
            symbols = await s.symbols(uri)  # the declarations that parse are still outlined
            assert [sym.name for sym in symbols] == ["fee"]
            assert await s.hover(uri, T.Position(line=3, character=7)) is None  # no checked program: no answer
            # Bad input of any kind gets a diagnostic, as `rulesc check` gives it, and the server goes on.
            for version, (text, code) in enumerate([("", "R0007"), ("a\x00b", "R0005"),
                                                     ("param x = " + "(" * 200 + "1" + ")" * 200 + "\n", "R0104"),
                                                     ("x" * 1_100_000, "R0003")], start=2):
                s.change(uri, text, version)
                found = await s.diagnostics_for(uri)
                assert [d.code for d in found][:1] == [code]
            s.change(uri, 'game "X":\n    players: 2 to 4\n', 9)
            assert "R0101" not in [d.code for d in await s.diagnostics_for(uri)]
        finally:
            assert await s.stop() == 0

    run(session())


def test_a_diagnostics_fix_is_a_quick_fix_that_edits_the_buffer(tmp_path):
    text = FINANCE.read_text("utf-8").replace("pay circuit_income from bank to player",
                                               "pay circuit_incom from bank to player")

    async def session():
        s = Session()
        init = await s.start()
        assert init.capabilities.code_action_provider
        try:
            uri = s.open(FINANCE, text)
            (error,) = [d for d in await s.diagnostics_for(uri) if d.severity == T.DiagnosticSeverity.Error]
            actions = await asyncio.wait_for(s.client.text_document_code_action_async(T.CodeActionParams(
                text_document=T.TextDocumentIdentifier(uri=uri), range=error.range,
                context=T.CodeActionContext(diagnostics=[error]))), WAIT)
            (action,) = actions
            assert action.kind == T.CodeActionKind.QuickFix and "circuit_income" in action.title
            (edit,) = action.edit.changes[uri]
            assert edit.new_text == "circuit_income" and edit.range == error.range
            assert not action.is_preferred  # a near name may be the wrong one: the editor does not apply it alone
        finally:
            assert await s.stop() == 0

    run(session())


def _server() -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "rulesc", "lsp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _answers_initialize(process: subprocess.Popen) -> None:
    """Send `initialize` and read the reply: the server is up and in its loop."""
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                       "params": {"processId": None, "rootUri": None, "capabilities": {}}}).encode()
    process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    process.stdin.flush()
    header = process.stdout.readline()
    assert header.startswith(b"Content-Length:"), header


@pytest.mark.parametrize("how", ["ctrl-c", "end of input", "exit"])
def test_the_server_ends_on_ctrl_c_on_the_end_of_its_input_and_on_exit(how):
    process = _server()
    try:
        _answers_initialize(process)
        if how == "ctrl-c":
            process.send_signal(signal.SIGINT)
        elif how == "end of input":
            process.stdin.close()
        else:
            body = b'{"jsonrpc": "2.0", "method": "exit"}'
            process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            process.stdin.flush()
        code = process.wait(WAIT)  # a bound against a hang, not a measure
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert code == (128 + signal.SIGINT if how == "ctrl-c" else 0)
    assert b"Traceback" not in process.stderr.read()
