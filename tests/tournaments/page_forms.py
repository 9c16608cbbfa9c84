"""A page's forms as a browser would send them untouched: every field's value as rendered
(checked boxes and radios, selected options, textareas), for tests that post a form back
as the reader found it."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict[str, Any]] = []
        self._select: tuple[str, list[tuple[str, bool]], bool] | None = None
        self._textarea: str | None = None
        self._text: list[str] = []

    @property
    def _form(self) -> dict[str, Any] | None:
        return self.forms[-1] if self.forms and self.forms[-1]["open"] else None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append(
                {"action": found.get("action", ""), "fields": [], "inputs": [], "open": True}
            )
            return
        form = self._form
        if form is None or "disabled" in found:
            return
        name = found.get("name")
        if tag == "input" and name:
            kind = found.get("type", "text")
            form["inputs"].append((name, kind, found.get("value", "")))
            if kind in ("checkbox", "radio") and "checked" not in found:
                return
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            form["fields"].append((name, found.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and name:
            self._select = (name, [], "multiple" in found)
        elif tag == "option" and self._select is not None:
            self._select[1].append((found.get("value", ""), "selected" in found))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        form = self._form
        if tag == "form" and form is not None:
            form["open"] = False
        elif tag == "select" and self._select is not None and form is not None:
            name, options, multiple = self._select
            chosen = [value for value, selected in options if selected]
            if not chosen and options and not multiple:
                chosen = [options[0][0]]  # a browser sends the first option
            form["fields"] += [(name, value) for value in chosen]
            self._select = None
        elif tag == "textarea" and self._textarea is not None and form is not None:
            # The parser keeps the newline that follows <textarea>, which browsers drop.
            form["fields"].append((self._textarea, "".join(self._text).removeprefix("\n")))
            self._textarea = None


def page_forms(html: str) -> list[dict[str, Any]]:
    """The forms of ``html``: each with its ``action``, the ``fields`` a browser sends
    untouched (name, value), and every ``inputs`` (name, type, value) as rendered."""
    parser = _Forms()
    parser.feed(html)
    return parser.forms


def form_with(html: str, field: str, action: str | None = None) -> dict[str, Any]:
    """The form of ``html`` that has a field named ``field`` (and posts to ``action``)."""
    for form in page_forms(html):
        if action is not None and form["action"] != action:
            continue
        if any(name == field for name, _kind, _value in form["inputs"]) or any(
            name == field for name, _value in form["fields"]
        ):
            return form
    raise AssertionError(f"no form with {field!r} (to {action!r}) on the page")


def as_posted(form: dict[str, Any]) -> dict[str, list[str]]:
    """``form``'s fields as the test client posts them (repeated names as lists)."""
    data: dict[str, list[str]] = {}
    for name, value in form["fields"]:
        data.setdefault(name, []).append(value)
    return data
