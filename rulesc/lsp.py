"""`rulesc lsp`: a language server for .rules files, over stdio (pygls).

It publishes the checker's diagnostics as a buffer is opened and edited (a variant's `extends` is
resolved relative to the document's path, from disk; a diagnostic whose code the registry, dsl/codes.py,
marks `unnecessary` — an unused declaration, a rule that never runs — is tagged so, and an editor fades
that text rather than underlining it), and answers hover (a name's declaration,
type and rulebook citation), go to definition (into a variant's base too), completion (names,
fields after `.`, keywords), the document outline and quick fixes (a diagnostic's suggested edits,
`dsl/fixes.py`). The answers come from `rulesc.langinfo`;
this module only translates positions and shapes between it and the protocol.

Positions: the protocol counts lines from 0 and characters in UTF-16 code units; spans count
both from 1, characters in code points.
"""

from __future__ import annotations

import os
import signal
import sys
from importlib import metadata

from lsprotocol import types as T
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from rulesc import langinfo
from rulesc.dsl import codes, fixes
from rulesc.dsl.diagnostics import MACHINE_APPLICABLE, Span

SEVERITY = {"error": T.DiagnosticSeverity.Error, "warning": T.DiagnosticSeverity.Warning,
            "note": T.DiagnosticSeverity.Information}
SYMBOL_KIND = {
    "game": T.SymbolKind.Module, "variant": T.SymbolKind.Namespace, "parameter": T.SymbolKind.Constant,
    "kind": T.SymbolKind.Class, "field": T.SymbolKind.Field, "group": T.SymbolKind.Enum,
    "table": T.SymbolKind.Struct, "row": T.SymbolKind.EnumMember, "square": T.SymbolKind.Object,
    "board": T.SymbolKind.Array, "deck": T.SymbolKind.Array, "card": T.SymbolKind.Object,
    "setup": T.SymbolKind.Constructor, "turn": T.SymbolKind.Event, "phase": T.SymbolKind.Method,
    "handler": T.SymbolKind.Event, "action": T.SymbolKind.Method, "trade": T.SymbolKind.Operator,
    "end": T.SymbolKind.Boolean, "hint": T.SymbolKind.Property, "function": T.SymbolKind.Function,
    "invariant": T.SymbolKind.Boolean, "scenario": T.SymbolKind.Module,
}
COMPLETION_KIND = {"keyword": T.CompletionItemKind.Keyword, "name": T.CompletionItemKind.Variable,
                   "field": T.CompletionItemKind.Field, "function": T.CompletionItemKind.Function,
                   "type": T.CompletionItemKind.Class}


def _version() -> str:
    try:
        return metadata.version("rulesc")
    except metadata.PackageNotFoundError:
        return "0"


# ---- positions ---------------------------------------------------------------------------------------

def _line(text: str, line: int) -> str:
    lines = text.splitlines()
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def to_lsp(text: str, line: int, column: int) -> T.Position:
    """A 1-based (line, code-point column) to a protocol position."""
    prefix = _line(text, line)[:max(column - 1, 0)]
    return T.Position(line=max(line - 1, 0), character=len(prefix.encode("utf-16-le")) // 2)


def from_lsp(text: str, pos: T.Position) -> tuple[int, int]:
    """A protocol position to a 1-based (line, code-point column)."""
    s = _line(text, pos.line + 1)
    units = 0
    for i, ch in enumerate(s):
        if units >= pos.character:
            return pos.line + 1, i + 1
        units += 2 if ord(ch) > 0xFFFF else 1
    return pos.line + 1, len(s) + 1


def span_range(text: str, span: Span | None) -> T.Range:
    if span is None:
        return T.Range(start=T.Position(line=0, character=0), end=T.Position(line=0, character=0))
    start = to_lsp(text, span.line, span.column)
    end = to_lsp(text, span.end_line, span.end_column)
    if (end.line, end.character) < (start.line, start.character):
        end = start
    return T.Range(start=start, end=end)


# ---- the server --------------------------------------------------------------------------------------

class RulesServer(LanguageServer):
    def __init__(self):
        super().__init__("rulesc", _version(), text_document_sync_kind=T.TextDocumentSyncKind.Full)
        self.analyses: dict[str, langinfo.Analysis] = {}  # uri -> the latest analysis
        self.good: dict[str, langinfo.Analysis] = {}  # uri -> the latest one that parsed

    def path_of(self, uri: str) -> str:
        return to_fs_path(uri) or uri

    def analyse(self, uri: str) -> langinfo.Analysis:
        doc = self.workspace.get_text_document(uri)
        try:
            analysis = langinfo.analyse(doc.source, self.path_of(uri))
        except Exception as exc:  # noqa: BLE001 - a bug in the checker must not take the server down
            self.window_log_message(T.LogMessageParams(
                type=T.MessageType.Error, message=f"rulesc: internal error while checking {uri}: "
                                                  f"{type(exc).__name__}: {exc} (this is a bug in rulesc)"))
            analysis = langinfo.Analysis(self.path_of(uri), doc.source, [])
        self.analyses[uri] = analysis
        if analysis.checked is not None:
            self.good[uri] = analysis
        return analysis

    def publish(self, uri: str, analysis: langinfo.Analysis, version=None) -> None:
        text = analysis.text
        diagnostics = []
        for d in analysis.diagnostics:
            message = d.message
            if d.help:
                message += f"\nhelp: {d.help}"
            for note in d.notes:
                message += f"\nnote: {note}"
            related = [T.DiagnosticRelatedInformation(
                location=T.Location(uri=from_fs_path(label.path or d.path) or uri,
                                    range=span_range(text, label.span)), message=label.message)
                for label in d.labels]
            diagnostics.append(T.Diagnostic(range=span_range(text, d.span), message=message,
                                            severity=SEVERITY.get(d.severity, T.DiagnosticSeverity.Error),
                                            code=d.code, source="rulesc",
                                            tags=[T.DiagnosticTag.Unnecessary] if codes.lookup(d.code).unnecessary
                                            else None,
                                            related_information=related or None))
        self.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics,
                                                                          version=version))

    def current(self, uri: str) -> langinfo.Analysis:
        """The analysis for questions: the latest, or when the buffer does not parse now, the latest
        that did (with the buffer's text of now, so the name under the cursor is read from it)."""
        analysis = self.analyses.get(uri) or self.analyse(uri)
        if analysis.checked is None and uri in self.good:
            good = self.good[uri]
            return langinfo.Analysis(good.path, analysis.text, analysis.diagnostics, good.rules, good.checked,
                                     cache=good._cache)
        return analysis


server = RulesServer()


@server.feature(T.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: RulesServer, params: T.DidOpenTextDocumentParams):
    ls.publish(params.text_document.uri, ls.analyse(params.text_document.uri), params.text_document.version)


@server.feature(T.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: RulesServer, params: T.DidChangeTextDocumentParams):
    ls.publish(params.text_document.uri, ls.analyse(params.text_document.uri), params.text_document.version)


@server.feature(T.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: RulesServer, params: T.DidSaveTextDocumentParams):
    ls.publish(params.text_document.uri, ls.analyse(params.text_document.uri))


@server.feature(T.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: RulesServer, params: T.DidCloseTextDocumentParams):
    uri = params.text_document.uri
    ls.analyses.pop(uri, None)
    ls.good.pop(uri, None)
    ls.text_document_publish_diagnostics(T.PublishDiagnosticsParams(uri=uri, diagnostics=[]))


@server.feature(T.TEXT_DOCUMENT_HOVER)
def hover(ls: RulesServer, params: T.HoverParams):
    analysis = ls.current(params.text_document.uri)
    line, column = from_lsp(analysis.text, params.position)
    found = langinfo.hover(analysis, line, column)
    if found is None:
        return None
    markdown, span = found
    return T.Hover(contents=T.MarkupContent(kind=T.MarkupKind.Markdown, value=markdown),
                   range=span_range(analysis.text, span))


@server.feature(T.TEXT_DOCUMENT_DEFINITION)
def definition(ls: RulesServer, params: T.DefinitionParams):
    uri = params.text_document.uri
    analysis = ls.current(uri)
    line, column = from_lsp(analysis.text, params.position)
    locations = []
    for decl in langinfo.definition(analysis, line, column):
        here = langinfo.same_file(decl.file, analysis.path)
        text = analysis.text if here else _read(decl.file, analysis)
        locations.append(T.Location(uri=uri if here else (from_fs_path(str(_absolute(decl.file))) or uri),
                                    range=span_range(text, decl.span)))
    return locations or None


def _absolute(path: str):
    from pathlib import Path
    return Path(path).resolve()


def _read(path: str, analysis: langinfo.Analysis) -> str:
    if analysis.checked is not None and path in analysis.checked.program.sources:
        return analysis.checked.program.sources[path]
    return ""


@server.feature(T.TEXT_DOCUMENT_COMPLETION, T.CompletionOptions(trigger_characters=["."]))
def completion(ls: RulesServer, params: T.CompletionParams):
    uri = params.text_document.uri
    analysis = ls.current(uri)
    text = ls.workspace.get_text_document(uri).source
    line, column = from_lsp(text, params.position)
    analysis = langinfo.Analysis(analysis.path, text, analysis.diagnostics, analysis.rules, analysis.checked,
                                 cache=analysis._cache)
    items = [T.CompletionItem(label=c.label, kind=COMPLETION_KIND[c.kind], detail=c.detail or None)
             for c in langinfo.completions(analysis, line, column)]
    return T.CompletionList(is_incomplete=False, items=items)


@server.feature(T.TEXT_DOCUMENT_CODE_ACTION,
                T.CodeActionOptions(code_action_kinds=[T.CodeActionKind.QuickFix]))
def code_action(ls: RulesServer, params: T.CodeActionParams):
    """The suggested fixes of the diagnostics in the range as quick fixes: each one edit of the buffer, the
    only fix of its diagnostic that is machine-applicable marked preferred (an editor may apply it alone)."""
    uri = params.text_document.uri
    analysis = ls.analyses.get(uri) or ls.analyse(uri)
    text = analysis.text
    wanted = params.range
    actions = []
    for d in analysis.diagnostics:
        where = span_range(text, d.span)
        if d.span is None or _lt(where.end, wanted.start) or _lt(wanted.end, where.start):  # touching is near
            continue
        found = [(fix, fixes.region(text, fix)) for fix in d.fixes]
        found = [(fix, span) for fix, span in found if span is not None]
        for fix, span in found:
            edit = T.TextEdit(range=span_range(text, span), new_text=fix.replacement)
            actions.append(T.CodeAction(
                title=f"{d.code}: replace `{fix.original}` with `{fix.replacement}`", kind=T.CodeActionKind.QuickFix,
                diagnostics=[T.Diagnostic(range=where, message=d.message, code=d.code, source="rulesc")],
                is_preferred=len(found) == 1 and fix.applicability == MACHINE_APPLICABLE or None,
                edit=T.WorkspaceEdit(changes={uri: [edit]})))
    return actions or None


@server.feature(T.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
def document_symbol(ls: RulesServer, params: T.DocumentSymbolParams):
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    return [_document_symbol(text, s) for s in langinfo.outline(text, ls.path_of(uri))]


def _document_symbol(text: str, s: langinfo.Symbol) -> T.DocumentSymbol:
    whole = span_range(text, s.span)
    selection = span_range(text, s.name_span)
    if not (_le(whole.start, selection.start) and _le(selection.end, whole.end)):
        selection = T.Range(start=whole.start, end=whole.start)
    return T.DocumentSymbol(name=s.name, detail=s.detail, kind=SYMBOL_KIND.get(s.kind, T.SymbolKind.Object),
                            range=whole, selection_range=selection,
                            children=[_document_symbol(text, c) for c in s.children] or None)


def _le(a: T.Position, b: T.Position) -> bool:
    return (a.line, a.character) <= (b.line, b.character)


def _lt(a: T.Position, b: T.Position) -> bool:
    return (a.line, a.character) < (b.line, b.character)


def _interrupted(signum, frame) -> None:
    """Ctrl-C ends the server at once. pygls reads stdin in a worker thread, blocked in a read that a
    KeyboardInterrupt in the main thread does not end (and that Python's exit would wait for), so the
    process leaves without unwinding: there is nothing to save, and every reply is written whole."""
    sys.stdout.flush()
    os._exit(128 + signal.SIGINT)


def serve() -> int:
    """Speak the protocol on stdin and stdout until the client says `exit`, closes stdin, or Ctrl-C."""
    signal.signal(signal.SIGINT, _interrupted)
    server.start_io()
    return 0
