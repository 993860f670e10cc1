"""The text boxes of an SVG picture, and those that overlap: for the tests of pictures whose labels
must stay readable (the money flow). A box is estimated as a reader's fonts draw it: its width the
font size times the number of characters times an average advance (0.6 em for a monospaced or bold
font, 0.55 em else), its height the font size (0.8 above the baseline, 0.2 below)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import NamedTuple

SVG = "{http://www.w3.org/2000/svg}"


class Box(NamedTuple):
    text: str
    left: float
    top: float
    right: float
    bottom: float


def text_boxes(svg: str) -> list[Box]:
    boxes = []
    for element in ET.fromstring(svg).iter(SVG + "text"):
        text = "".join(element.itertext())
        if not text.strip():
            continue
        size = float(element.get("font-size", "14"))
        family = element.get("font-family", "").lower()
        em = 0.6 if "mono" in family or "courier" in family or element.get("font-weight") == "bold" else 0.55
        width = len(text) * size * em
        x, y = float(element.get("x", "0")), float(element.get("y", "0"))
        anchor = element.get("text-anchor", "start")
        left = x if anchor == "start" else x - width / 2 if anchor == "middle" else x - width
        boxes.append(Box(text, left, y - 0.8 * size, left + width, y + 0.2 * size))
    return boxes


def overlapping(svg: str, slack: float = 0.5) -> list[tuple[str, str]]:
    """The pairs of texts whose boxes overlap by more than `slack` points both ways."""
    boxes = text_boxes(svg)
    return [(a.text, b.text) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if min(a.right, b.right) - max(a.left, b.left) > slack and min(a.bottom, b.bottom) - max(a.top, b.top) > slack]
