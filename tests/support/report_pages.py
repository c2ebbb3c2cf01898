"""The report page read back as HTML: its tables, sections and links."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """Tags, attributes and text of a page, for checking what a browser would see."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.tables: list[tuple[str, list[list[str]]]] = []  # (text before it, rows of cells)
        self._cell: list[str] | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "table":
            self.tables.append(("".join(self.text), []))
        elif tag == "tr" and self.tables:
            self.tables[-1][1].append([])
        elif tag in ("td", "th") and self.tables:
            self._cell = []
            self.tables[-1][1][-1].append("")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][1][-1][-1] = " ".join("".join(self._cell).split())
            self._cell = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._cell is not None:
            self._cell.append(data)

    def table_after(self, heading: str) -> list[list[str]]:
        """The cells of the first table that follows the text ``heading``."""
        return next(rows for before, rows in self.tables if heading in before)

    def ids(self) -> set[str]:
        return {a["id"] for _, a in self.tags if a.get("id")}

    def attr(self, tag: str, name: str) -> list[str]:
        return [a[name] or "" for t, a in self.tags if t == tag and name in a]
