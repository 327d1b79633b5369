"""Reading the SVG drawings back, for the tests of both renderers' drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"


def parse_svg(text: str) -> ET.Element:
    """The drawing's root element, checked to be an SVG."""
    root = ET.fromstring(text)
    assert root.tag == f"{NS}svg"
    return root


def find(root: ET.Element, tag: str, cls: str) -> list[ET.Element]:
    """The elements of ``tag`` that carry the class ``cls``."""
    return [e for e in root.iter(f"{NS}{tag}") if cls in e.get("class", "").split()]
