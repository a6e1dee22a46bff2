#!/usr/bin/env python3
"""BFCL's own verdicts on recorded answers, from the checker in the `bfcl-eval` wheel
(fetch.sh), to check our port of it (tests/tests/real_model/bfcl/grade.rs).

    official.py ROOT IN OUT         BFCL's verdict on each answer of IN (bfcl.sh's BFCL_RECORD):
                                    "ok", or BFCL's error_type
    official.py ROOT --variants N OUT
                                    answers made from the first N cases' possible answers, each
                                    altered one way (a value, a type, a parameter, the count,
                                    the order), graded the same way

OUT is the recorded answers' file as tests/tests/real_model/bfcl/recorded.rs reads it, one JSON
object a line: each case once, before its first answer ({"id", "category", "functions",
"answers"}), then each answer ({"id", "side", "calls", "official"}).

ROOT is what fetch.sh prints. Only `ast_checker.py` is loaded, with the few names it imports
from the rest of the package given here (the package's own imports pull in every provider's SDK).
"""
import copy
import enum
import json
import sys
import types

root = sys.argv[1]
source = open(f"{root}/bfcl_eval/eval_checker/ast_eval/ast_checker.py").read()


class Language(enum.Enum):
    PYTHON = "python"
    JAVA = "java"
    JAVASCRIPT = "javascript"


def stub(name, **names):
    module = types.ModuleType(name)
    module.__dict__.update(names)
    sys.modules[name] = module


class Config:
    # Our tools are offered with `.` made `_`, as BFCL's OpenAI handlers offer them.
    underscore_to_dot = True


stub("bfcl_eval.constants.enums", Language=Language)
stub("bfcl_eval.constants.model_config", MODEL_CONFIG_MAPPING={"ours": Config()})
stub("bfcl_eval.constants.type_mappings", JAVA_TYPE_CONVERSION={}, JS_TYPE_CONVERSION={})
stub("bfcl_eval.eval_checker.ast_eval.type_convertor.java_type_converter", java_type_converter=None)
stub("bfcl_eval.eval_checker.ast_eval.type_convertor.js_type_converter", js_type_converter=None)
checker = {}
exec(compile(source, "ast_checker.py", "exec"), checker)


def verdict(record):
    calls = [{name: arguments} for name, arguments in record["calls"]]
    if any(not isinstance(arguments, dict) for name, arguments in record["calls"]):
        return "decode_error"
    try:
        result = checker["ast_checker"](
            record["functions"], calls, record["answers"], Language.PYTHON, record["category"], "ours"
        )
    except Exception as error:  # the checker's own crash on data it does not expect
        return f"crash:{type(error).__name__}"
    return "ok" if result["valid"] else result["error_type"]


def variants(record):
    """The possible answer's first options as calls, then each altered one way."""
    def first(answer):
        name, params = next(iter(answer.items()))
        chosen = {}
        for param, options in params.items():
            given = [option for option in options if option != ""]
            if given:
                chosen[param] = given[0]
        return [name.replace(".", "_"), chosen]

    right = [first(answer) for answer in record["answers"]]
    yield "right", right
    yield "reversed", right[::-1]
    yield "one more call", right + right[:1]
    yield "no call", []
    yield "renamed", [[name + "_v2", arguments] for name, arguments in right]
    for param, value in right[0][1].items():
        def altered(new_value):
            calls = copy.deepcopy(right)
            calls[0][1][param] = new_value
            return calls

        if isinstance(value, str):
            yield f"{param} shouted", altered(value.upper() + " ")
            yield f"{param} changed", altered(value + "x")
            yield f"{param} a number", altered(7)
        elif isinstance(value, bool):
            yield f"{param} flipped", altered(not value)
        elif isinstance(value, int):
            yield f"{param} as a float", altered(float(value))
            yield f"{param} as text", altered(str(value))
            yield f"{param} changed", altered(value + 1)
        elif isinstance(value, float):
            yield f"{param} changed", altered(value * 2 + 1)
        elif isinstance(value, list):
            yield f"{param} emptied", altered([])
            yield f"{param} reversed", altered(value[::-1])
        elif isinstance(value, dict):
            yield f"{param} emptied", altered({})
        dropped = copy.deepcopy(right)
        del dropped[0][1][param]
        yield f"{param} left out", dropped
    extra = copy.deepcopy(right)
    if extra:
        extra[0][1]["unasked"] = 1
        yield "unknown parameter", extra


class Fixture:
    def __init__(self, path):
        self.out, self.seen = open(path, "w"), set()

    def write(self, record):
        if record["id"] not in self.seen:
            self.seen.add(record["id"])
            case = {key: record[key] for key in ["id", "category", "functions", "answers"]}
            self.out.write(json.dumps(case) + "\n")
        answer = {"id": record["id"], "side": record["side"], "calls": record["calls"], "official": verdict(record)}
        self.out.write(json.dumps(answer) + "\n")


if sys.argv[2] == "--variants":
    count, out = int(sys.argv[3]), Fixture(sys.argv[4])
    for stem in ["simple_python", "multiple", "parallel"]:
        questions = open(f"{root}/bfcl_eval/data/BFCL_v4_{stem}.json").read().splitlines()[:count]
        answers = open(f"{root}/bfcl_eval/data/possible_answer/BFCL_v4_{stem}.json").read().splitlines()[:count]
        for question, answer in zip(questions, answers):
            question, answer = json.loads(question), json.loads(answer)
            record = {"id": question["id"], "category": stem, "functions": question["function"],
                      "answers": answer["ground_truth"]}
            for what, calls in variants(record):
                out.write(dict(record, side=what, calls=calls))
else:
    out = Fixture(sys.argv[3])
    for line in open(sys.argv[2]):
        out.write(json.loads(line))
