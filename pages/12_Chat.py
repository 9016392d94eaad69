"""Chat: a conversation rendered by each model's chat template, with every token over it, side by side."""

import pandas as pd
import streamlit as st

from tokapp import chat_tool_calls, chat_view, st_chat, st_common

st_common.page_setup()
st_chat.init_state()
st.html(chat_view.style_block())
st.title("Chat")
st.caption("A conversation as each model sees it: its chat template renders the messages, then its tokenizer cuts "
           "the prompt. Hatched tokens were added by the template; coloured ones are what you wrote.")

with st.sidebar:
    st_common.tokenizer_sources(st_chat.P, multiple=True)  # Hub names and uploads, added to the models below
    chosen = st_chat.model_choice(st_common.available_specs())
    configs = st_chat.user_template(st_chat.own_configs(chosen))
    palette, show_ids = st_common.display_options()

st.subheader("Conversation")
messages = st_chat.message_editor()
tools = st_chat.tools_box()
agp = st.toggle("Add the generation prompt (add_generation_prompt)", key=st_chat.AGP,
                help="Ends the prompt with the tag that opens the assistant's reply, as for generation.")

if not chosen:
    st.info("Pick one to four models in the sidebar.", icon=":material/chat:")
    st.stop()
if not messages:
    st.info("The conversation is empty: add a message above to see how each model's template renders it.",
            icon=":material/chat:")
    st.stop()

results = [st_chat.run_model(model, messages, tools, agp) for model in configs]
st.subheader("The prompt, token by token")
st.html(chat_view.legend_html(palette))
if chat_tool_calls.call_names(messages):
    st.caption("Tool calls are written by the template from your JSON, so their tokens count as the template's: "
               "only message contents are coloured as yours.")
for column, result in zip(st.columns(len(results)), results):
    with column:
        label = chat_view.md_escape(result.model.label)
        st.markdown(f"**{label}**" + (f" · {chat_view.md_escape(result.model.origin)}" if result.model.origin else ""))
        if result.error is not None:
            if result.render is None and result.model.config is None:
                st.info(f"{result.error}: upload its tokenizer_config.json or paste a template under "
                        "\"Your own chat template\" in the sidebar.", icon=":material/info:")
            else:
                st.error(result.error, icon=":material/error:")
            continue
        total = sum(result.counts) + result.template_count
        a, b = st.columns(2)
        a.metric("Tokens", total)
        b.metric("Added by the template", result.template_count)
        for warning in result.warnings:
            st.warning(warning, icon=":material/warning:")
        try:
            st.html(chat_view.prompt_html(result.view, result.owners, result.render.roles, palette=palette,
                                          show_ids=show_ids))
        except ValueError as exc:
            st_common.show_error(exc)
        with st.expander("Rendered text"):
            st.code(result.render.text, language=None, wrap_lines=True)

st.subheader("Tokens per message")
ok = [r for r in results if r.error is None]
columns = [(r.model.label, r.counts, r.template_count) for r in results]
st.dataframe(pd.DataFrame(chat_view.counts_records([m["role"] for m in messages], [m["content"] for m in messages],
                                                   columns)), hide_index=True, width="stretch")
if len(ok) > 1:
    totals = ", ".join(f"{chat_view.md_escape(r.model.label)}: {sum(r.counts) + r.template_count}" for r in ok)
    st.caption(f"Totals: {totals}.")
