"""Visiting another page and coming back keeps what was typed and switched on (the Playground and Pipeline stages
text past the link's 600 characters, and the shared padding / units switches on every encoding page)."""

from __future__ import annotations

import pytest
from shared_data import ROOT
from streamlit.testing.v1 import AppTest

LONG = "Botchan was a rash boy. " * 40  # 960 characters: too long for the link, so only the session keeps it


@pytest.mark.parametrize("page, prefix", [("pages/1_Playground.py", "pg"), ("pages/8_Pipeline_stages.py", "ps"),
                                          ("pages/2_Offsets_inspector.py", "oi")])
def test_text_and_switches_survive_a_visit_to_another_page(page, prefix):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    at.run()
    at.switch_page(page).run()
    at.text_area(key=f"{prefix}_text").set_value(LONG).run()
    at.toggle(key=f"{prefix}_units").set_value(True).run()
    at.toggle(key=f"{prefix}_pad").set_value(True).run()
    at.switch_page("pages/4_Load_and_export.py").run()
    at.switch_page(page).run()
    assert not at.exception
    assert at.text_area(key=f"{prefix}_text").value == LONG
    assert at.toggle(key=f"{prefix}_units").value and at.toggle(key=f"{prefix}_pad").value
