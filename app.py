"""tokcore's Streamlit app: routes over every file in ``pages/`` (see ``tokapp.pages``).

Run it with ``bash run.sh app`` (or ``streamlit run app.py`` inside the venv).
"""

import streamlit as st

from tokapp.pages import by_section, discover_pages
from tokapp.st_common import init_state

st.set_page_config(page_title="tokcore: see your tokens", page_icon="🔤", layout="wide")
init_state()

navigation = st.navigation(
    {
        section: [
            st.Page(page.path, title=page.title, icon=page.icon, url_path=page.url_path, default=page.default)
            for page in pages
        ]
        for section, pages in by_section(discover_pages()).items()
    }
)
st.sidebar.caption("tokcore: tokenizers with exact offsets.")
navigation.run()
