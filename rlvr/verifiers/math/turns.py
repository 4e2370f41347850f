"""Which part of a completion is the reply being graded: a chat template's turn markers (the reply opens after its
own and ends at the next turn's), gpt-oss's final channel, and the answer of a tagged reply (after `</think>`, an
`<answer>` tag read as a box)."""

from __future__ import annotations

import re

# a chat template's turn marker, in every family's spelling: ChatML and Qwen (`<|im_end|>`), Llama 3 (`<|eot_id|>`,
# `<|start_header_id|>`), Phi-3 (`<|end|>`, `<|user|>`), Gemma (`<end_of_turn>`, `<start_of_turn>`, with or without
# bars), Mistral and Llama 2 (`</s>`, `[INST]`), Llama 3's `<|end_of_text|>`, Command R (`<|END_OF_TURN_TOKEN|>`),
# and every DeepSeek token (`<｜end▁of▁sentence｜>`, `<｜User｜>`: full-width bars)
_TURN_TOKEN = (
    r"<\|(?:im_start|im_end|endoftext|end_of_text|eot_id|eom_id|end_of_turn|start_of_turn|start_header_id"
    r"|end_header_id|end|user|system|assistant|END_OF_TURN_TOKEN|START_OF_TURN_TOKEN|USER_TOKEN|CHATBOT_TOKEN"
    r"|SYSTEM_TOKEN)\|>|<(?:end_of_turn|start_of_turn)>|<\uff5c[^<>\n\uff5c]{1,40}\uff5c>"
)
# the model went on to a new chat turn: nothing after it answers this one
_NEXT_TURN_RE = re.compile(
    _TURN_TOKEN + r"|</s>|\[INST\]"
    # a new turn or a new problem written out: `Human:`, `User:`, `Q:` (few-shot), `Problem 2:`, `### Exercise`,
    # `## Follow-up question 1:` (a question the reply poses itself and answers: not the one asked),
    # an Alpaca-style heading of the next prompt (`### Instruction:`, `### Input:`)
    r"|\n[ \t]*(?:Human|User|Assistant|System|Q|HUMAN|USER|ASSISTANT|SYSTEM)[ \t]*:|\n[ \t]*(?:#+[ \t]*)?(?:(?:Follow-?up|Next|Bonus|Another)[ \t]+(?:[Pp]roblem|[Ee]xercise|[Qq]uestion)|Problem|Exercise|Question)(?:[ \t]+\d+)?[ \t]*[:.\n]"
    r"|\n[ \t]*#+[ \t]*(?:Instruction|Input)[ \t]*:?[ \t]*\n"
    # (a numbered heading of a next task the reply wrote itself: `## Instruction 2 (More Difficult)`)
    r"|\n[ \t]*#+[ \t]*(?:Instruction|Problem|Exercise|Question|Task)[ \t]+\d+\b[^\n]*\n"
)
# a GSM8K-style run-on: after a `#### 72` answer line, a line that asks a new question starts another problem
_GSM8K_RUN_ON_RE = re.compile(r"^####[^\n]{1,40}\n(?:[ \t]*\n)*(?=[^\n#]{8,300}\?[ \t]*$)", re.M)


_INSTRUCTION_HEADING_RE = re.compile(r"(?:^|\n)[ \t]*#+[ \t]*Instruction[ \t]*:?")
_RESPONSE_HEADING_RE = re.compile(r"(?:^|\n)[ \t]*#+[ \t]*Response[ \t]*:?")
_OPENING_TURN_RE = re.compile(r"(?:\s*(?:" + _TURN_TOKEN + r")(?:assistant|model)?)+")


_THINK_END_RE = re.compile(r"</think>", re.IGNORECASE)
# gpt-oss (harmony format): the analysis channel is the thinking, its `<|end|>` no turn of another speaker; the
# message of the final channel answers (`<|start|>assistant<|channel|>final<|message|>...<|return|>`)
_HARMONY_FINAL_RE = re.compile(
    r"<\|channel\|>\s*final\s*(?:<\|constrain\|>[^<]{0,40})?<\|message\|>", re.IGNORECASE
)


_ANSWER_TAG_RE = re.compile(r"<(answer|solution)>(.*?)</\1>", re.IGNORECASE | re.S)


def tagged_reply(text: str) -> str:
    """The part of a tagged reply that answers: after `</think>` when anything follows it (the thinking is a
    draft: its boxes and phrases are not the answer), with an `<answer>...</answer>` tag read as a box."""
    ends = list(_THINK_END_RE.finditer(text))
    if ends and text[ends[-1].end() :].strip():
        text = text[ends[-1].end() :]
    # every tag is a box: two tags with different values are two answers (`<answer>24</answer><answer>25</answer>`)
    return _ANSWER_TAG_RE.sub(lambda m: "\\boxed{" + m.group(2).strip() + "}", text)


def reply_opened(text: str) -> str:
    """`text` from where the reply opens: after a leading turn marker (`<|im_start|>assistant`) or an echoed prompt's
    `### Response:` heading, in gpt-oss's final channel when it has one."""
    opening = _OPENING_TURN_RE.match(text)  # `<|im_start|>assistant` before the reply opens it, ends nothing
    text = text[opening.end() :] if opening else text
    # an echoed Alpaca-style prompt (WizardMath: `Below is an instruction ... ### Instruction: ... ### Response:`):
    # the reply opens after its response heading
    # (its instruction heading opens the text, after at most the template's preamble of words)
    instruction = _INSTRUCTION_HEADING_RE.search(text, 0, 400) if "Instruction" in text[:400] else None
    if instruction is not None and re.search(r"\d|\\boxed", text[: instruction.start()]):
        # (a value before it: the reply came first, and the heading runs on to another turn)
        instruction = None
    response = _RESPONSE_HEADING_RE.search(text, instruction.end()) if instruction is not None else None
    if response is not None:
        text = text[response.end() :]
    finals = list(_HARMONY_FINAL_RE.finditer(text))
    return text[finals[-1].end() :] if finals else text


def turn_ended(text: str) -> str:
    """`text` up to the next turn (a chat template's marker, `User:`, `Problem 2:`): nothing after it answers."""
    turn = _NEXT_TURN_RE.search(text)
    text = text[: turn.start()] if turn is not None else text
    run_on = _GSM8K_RUN_ON_RE.search(text) if "####" in text else None
    return text[: run_on.end()] if run_on is not None else text
