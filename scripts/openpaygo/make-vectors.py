"""Test vectors for the OpenPAYGO time divider and OpenPAYGO Metrics, produced by running the
official Python library (EnAccess/OpenPAYGO-python) on a local snapshot. Our tests replay them;
nothing here is part of the app.

    PYTHONPATH=<shim with siphash>:<snapshot> python3 scripts/openpaygo/make-vectors.py <out dir>

The official library imports `siphash.SipHash_2_4`; without PyPI, a three-line shim over
Debian's python3-siphashc provides it (it reproduces the library's own 80-row token test set).
"""
import json
import sys
from datetime import datetime, timezone

from openpaygo import AuthMethod, MetricsRequestHandler, MetricsResponseHandler, TokenType, generate_token

out = sys.argv[1]
KEY = "bc41ec9530f6dac86b1a29ab82edc5fb"
KEY2 = "dac86b1a29ab82edc5fbbc41ec9530f6"
START = 516959010
TYPES = {"ADD_TIME": TokenType.ADD_TIME, "SET_TIME": TokenType.SET_TIME}

# --- Divided tokens: value = round(days * divider) (Python's round: half to even), limits 995 / 999999.
divided = []
cases = [
    # (token_type, days, divider, extended, count)
    ("ADD_TIME", 1, 1, False, 0), ("ADD_TIME", 1, 24, False, 0), ("ADD_TIME", 41, 24, False, 2),
    ("ADD_TIME", 7, 2, False, 4), ("ADD_TIME", 0.5, 2, False, 6), ("ADD_TIME", 1.5, 3, False, 8),
    ("ADD_TIME", 2.5, 1, False, 10), ("ADD_TIME", 3.5, 1, False, 10), ("ADD_TIME", 0.125, 4, False, 12),
    ("ADD_TIME", 199, 5, False, 14), ("ADD_TIME", 1, 995, False, 16), ("ADD_TIME", 30, 24, True, 0),
    ("ADD_TIME", 365, 1440, True, 1), ("SET_TIME", 10, 24, False, 3), ("SET_TIME", 0, 24, False, 5),
    ("SET_TIME", 49, 20, False, 7), ("SET_TIME", 2.25, 10, False, 9),
    ("ADD_TIME", 42, 24, False, 0), ("ADD_TIME", 996, 1, False, 0), ("ADD_TIME", 1000, 1000, True, 0),
]
for token_type, days, divider, extended, count in cases:
    row = {"key": KEY, "starting_code": START, "count": count, "token_type": token_type, "days": days,
           "divider": divider, "extended": extended}
    try:
        new_count, token = generate_token(secret_key=KEY, count=count, value=days, token_type=TYPES[token_type],
                                          starting_code=START, value_divider=divider, extended_token=extended)
        row.update({"value": int(round(days * divider, 0)), "new_count": new_count, "token": token})
    except ValueError as e:
        row.update({"error": str(e)})
    divided.append(row)
with open(f"{out}/divided-tokens.json", "w") as f:
    json.dump(divided, f, indent=1)

# --- Metrics requests (device side) and answers (server side).
FORMAT = {"id": 7, "data_order": ["token_count", "tampered", "firmware_version", "battery_v"],
          "historical_data_order": ["panel_v", "battery_v", "load_w"], "historical_data_interval": 600}
INLINE = {"data_order": ["token_count", "battery_v"], "historical_data_order": ["panel_v", "load_w"],
          "historical_data_interval": 3600}
requests = []


def request(name, serial, key, auth, data_format=None, ts=None, rc=None, data=None, hist=None, condensed=False):
    h = MetricsRequestHandler(serial_number=serial, data_format=data_format, secret_key=key, auth_method=auth)
    if ts is not None:
        h.set_timestamp(ts)
    if rc is not None:
        h.set_request_count(rc)
    if data is not None:
        h.set_data(data)
    if hist is not None:
        h.set_historical_data(hist)
    payload = h.get_condensed_request_payload() if condensed else h.get_simple_request_payload()
    requests.append({"name": name, "key": key, "data_format": data_format if data_format and data_format.get("id") else None, "payload": payload})
    return payload


data = {"token_count": 4, "tampered": False, "firmware_version": "1.14.2", "battery_v": 12.5}
hist = [{"panel_v": 18.25, "battery_v": 12.0, "load_w": 3}, {"panel_v": 19.0, "battery_v": 12.75, "load_w": 4}]
request("simple auth", "SN-1001", KEY, AuthMethod.SIMPLE_AUTH, ts=1700000000, data={"battery_v": 12})
request("timestamp auth", "SN-1001", KEY, AuthMethod.TIMESTAMP_AUTH, ts=1700000600, data=dict(data))
request("counter auth", "SN-1001", KEY, AuthMethod.COUNTER_AUTH, rc=12, data=dict(data))
request("data auth, simple", "SN-1001", KEY, AuthMethod.DATA_AUTH, ts=1700001200, data=dict(data),
        hist=[dict(x) for x in hist], data_format=FORMAT)
request("data auth, condensed", "SN-1001", KEY, AuthMethod.DATA_AUTH, ts=1700001800, data=dict(data),
        hist=[dict(x) for x in hist], data_format=FORMAT, condensed=True)
request("recursive data auth, simple", "SN-1001", KEY, AuthMethod.RECURSIVE_DATA_AUTH, rc=13, data=dict(data),
        hist=[dict(x) for x in hist], data_format=FORMAT)
request("recursive data auth, condensed, inline format", "SN-2002", KEY2, AuthMethod.RECURSIVE_DATA_AUTH,
        ts=1700002400, rc=3, data={"token_count": 2, "battery_v": 1e-05}, hist=[{"panel_v": 1e16, "load_w": -0.0},
        {"panel_v": 100.0, "load_w": 7}], data_format=INLINE, condensed=True)
request("data auth, text outside ASCII", "SN-1001", KEY, AuthMethod.DATA_AUTH, ts=1700003000,
        data={"note": "Gar\u00e7on \u20ac \U0001F600 \"q\" \\ \n\t\u0001", "active_until_timestamp_requested": True})
request("recursive data auth, no data", "SN-1001", KEY, AuthMethod.RECURSIVE_DATA_AUTH, ts=1700003600)
request("recursive data auth, seconds left requested", "SN-1001", KEY, AuthMethod.RECURSIVE_DATA_AUTH,
        ts=1700004200, data={"active_seconds_left_requested": True, "battery_v": 12.25})
for r in requests:
    handler = MetricsResponseHandler(r["payload"], data_format=r["data_format"], secret_key=r["key"])
    r["auth_valid"] = handler.is_auth_valid()
    r["simple"] = handler.get_simple_metrics()
    bad = MetricsResponseHandler(r["payload"], data_format=r["data_format"], secret_key=KEY2 if r["key"] == KEY else KEY)
    r["auth_valid_with_other_key"] = bad.is_auth_valid()

# Answers: the signature of what the server sends back.
answers = []


def answer(name, payload, key, tokens=None, until=None, seconds=None, settings=None, extra=None):
    h = MetricsResponseHandler(payload, secret_key=key)
    if tokens is not None:
        h.add_tokens_to_answer(tokens)
    if until is not None:
        h.response_dict["active_until_timestamp"] = until
    if seconds is not None:
        h.response_dict["active_seconds_left"] = seconds
    if settings is not None:
        h.add_settings_to_answer(settings)
    if extra is not None:
        h.add_extra_data_to_answer(extra)
    answers.append({"name": name, "key": key, "request": payload, "answer": h.get_answer_payload()})


answer("tokens", requests[1]["payload"], KEY, tokens=["123456789", "012345678"])
answer("tokens, counter", requests[2]["payload"], KEY, tokens=["987654321"])
answer("active until", requests[7]["payload"], KEY, until=1701388800)
answer("seconds left", requests[9]["payload"], KEY, seconds=3600)
answer("nothing due", requests[0]["payload"], KEY)
answer("settings and extra data", requests[6]["payload"], KEY2, tokens=["111222333"],
       settings={"base_url": "https://example.org/dd"}, extra={"sun": "990"})
# The library itself puts a datetime's float timestamp (a trailing .0) in the answer:
answer("active until, as the library computes it", requests[7]["payload"], KEY,
       until=datetime(2023, 12, 1, tzinfo=timezone.utc).timestamp())
with open(f"{out}/metrics.json", "w") as f:
    json.dump({"requests": requests, "answers": answers}, f, indent=1, ensure_ascii=False)
print(len(divided), len(requests), len(answers))
