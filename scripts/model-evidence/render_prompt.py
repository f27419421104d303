#!/usr/bin/env python3
"""Renders a captured /v1/chat/completions request body into the prompt string the model
server feeds the model, with llama-cpp-python's own chat formatter, and counts its tokens
with the model's own tokenizer (the same call the server makes), so the count can be
compared with the `usage.prompt_tokens` the server answered.

Usage: render_prompt.py MODEL.gguf CHAT_FORMAT REQUEST_BODY.json
CHAT_FORMAT is what the server used (its log says: `Using fallback chat format: llama-2`,
`Guessed chat format: …`, or `chat_template.default` for a template in the GGUF).
Prints one JSON object: {"chat_format", "prompt", "prompt_tokens", "control_tokens"}, where
control_tokens lists, in order, every token of the prompt that the model's vocabulary marks
as a control token (`<bos>`, `<start_of_turn>`, …): text that could steer the model as markup.
"""
import json
import sys

import llama_cpp
from llama_cpp import Llama, llama_chat_format


def main() -> None:
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    model_path, chat_format, request_path = sys.argv[1:]
    with open(request_path, encoding="utf-8") as f:
        messages = json.load(f)["messages"]
    llm = Llama(model_path=model_path, vocab_only=True, verbose=False)
    if chat_format == "chat_template.default":
        template = llm.metadata["tokenizer.chat_template"]
        eos = llm._model.token_get_text(llm.token_eos())
        bos = llm._model.token_get_text(llm.token_bos())
        result = llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)(messages=messages)
    else:
        formatters = {
            "llama-2": llama_chat_format.format_llama2,
            "gemma": llama_chat_format.format_gemma,
            "chatml": llama_chat_format.format_chatml,
        }
        if chat_format not in formatters:
            sys.exit("render_prompt.py: no formatter mapped for chat format %r" % chat_format)
        result = formatters[chat_format](messages=messages)
    tokens = llm.tokenize(result.prompt.encode("utf-8"), add_bos=not result.added_special, special=True)
    control = [
        llm._model.token_get_text(t) for t in tokens if llm._model.token_get_attr(t) & llama_cpp.LLAMA_TOKEN_ATTR_CONTROL
    ]
    print(json.dumps({"chat_format": chat_format, "prompt": result.prompt, "prompt_tokens": len(tokens), "control_tokens": control}, ensure_ascii=False))


if __name__ == "__main__":
    main()
