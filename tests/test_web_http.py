"""The web app over plain HTTP: its guards (token, paths, CSP, body limit, messages), a game
played by requests, replays checked against the engine, reports, and ``holdem report``."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from simulator.cli import main as holdem_main  # noqa: E402
from simulator.core.game import GameConfig  # noqa: E402
from simulator.interop.phh import dumps_all, loads_all, replay  # noqa: E402
from simulator.play.baseline import CallBot, RandomBot  # noqa: E402
from simulator.play.match import play_match  # noqa: E402
from simulator.web.app import CSP, MAX_BODY, WebApp  # noqa: E402
from simulator.web.report_cli import main as report_main  # noqa: E402


@pytest.fixture()
def served(tmp_path: Path) -> tuple[WebApp, TestClient, Path]:
    root = tmp_path / "results"
    run = root / "run"
    run.mkdir(parents=True)
    game = GameConfig(variant="nolimit", stack=100)
    histories = [r.history for r in play_match(game, [RandomBot(seed=1), CallBot()], 6, seed=5)]
    (run / "hands.phhs").write_text(dumps_all(histories))
    (run / "summary.json").write_text(json.dumps({
        "unit": "big_blinds", "deals": 6, "blocks": 1,
        "config": {"game": {"blinds": [1, 2]}}, "players": {
            "a": {"hands": 6, "mean": 1.5, "ci95": [0.5, 2.5], "faults": 0},
            "b": {"hands": 6, "mean": -1.5, "ci95": [-2.5, -0.5], "faults": 0}}}))
    (run / "hands.csv").write_text("block,perm,hand,button,seat:a,seat:b,net:a,net:b\n"
                                   + "".join(f"0,0,{i},0,0,1,{2 * i},{-2 * i}\n"
                                             for i in range(6)))
    (tmp_path / "secret.txt").write_text("outside")
    (root / "link").symlink_to(tmp_path / "secret.txt")
    web = WebApp([root], tmp_path / "sessions", token="tok", idle_seconds=0.5)
    return web, TestClient(web.asgi()), root


TOKEN = {"x-holdem-token": "tok"}


def test_every_response_carries_the_csp_of_its_own_origin(served):
    _, client, _ = served
    for path in ("/", "/replay", "/static/play.js", "/api/list", "/nowhere"):
        response = client.get(path)
        assert response.headers["content-security-policy"] == CSP
    assert "'self'" in CSP and "http" not in CSP and "unsafe" not in CSP


def test_the_play_page_and_game_calls_need_the_token(served):
    _, client, _ = served
    assert client.get("/play").status_code == 403
    assert client.get("/play?token=wrong").status_code == 403
    assert client.get("/play?token=tok").status_code == 200
    body = {"opponents": [{"bot": "call"}]}
    assert client.post("/api/games", json=body).status_code == 403
    assert client.post("/api/games", json=body, headers={"x-holdem-token": "nope"}
                       ).status_code == 403
    assert client.post("/api/games", json=body, headers=TOKEN).status_code == 201


@pytest.mark.parametrize("ref", ["0/../secret.txt", "/etc/passwd", "0//etc/passwd",
                                 "0/link", "1/run", "9/run", "0/run/../../secret.txt",
                                 "0/run\x00", ""])
def test_paths_outside_the_roots_are_not_found(served, ref):
    _, client, _ = served
    for api in ("/api/hands", "/api/report"):
        response = client.get(api, params={"ref": ref})
        assert response.status_code == 404, (api, ref)
        assert "outside" not in response.text


def test_the_listing_names_only_what_lies_under_the_roots(served):
    _, client, root = served
    listing = client.get("/api/list").json()
    assert [f["ref"] for f in listing["found"]] == ["0/run"]
    assert "call" in listing["bots"] and "secret" not in json.dumps(listing)


def test_a_body_over_the_limit_is_refused(served):
    _, client, _ = served
    big = b"{" + b" " * (MAX_BODY + 1) + b"}"
    response = client.post("/api/games", content=big, headers=TOKEN)
    assert response.status_code == 413


@pytest.mark.parametrize("body, words", [
    ({"opponents": [{"bot": "no_such_bot"}]}, "unknown bot 'no_such_bot'"),
    ({"opponents": [{"bot": "os:system"}]}, "not a bot class"),
    ({"opponents": [{"bot": "call"}], "stack": 2}, "game.stack"),
    ({"opponents": []}, "opponents"),
    ({"opponents": [{"bot": "call"}] * 10}, "opponents"),
    ({"opponents": [{"bot": "call"}], "variant": "stud"}, "variant"),
    ({"opponents": [{"bot": "cfr"}]}, "cfr"),
])
def test_a_bad_game_is_one_message_and_a_400(served, body, words):
    _, client, _ = served
    response = client.post("/api/games", json=body, headers=TOKEN)
    assert response.status_code == 400, response.text
    assert words in response.json()["error"] and "Traceback" not in response.text


def _play_to_showdown(client: TestClient, ident: str) -> dict:
    call = f"/api/games/{ident}"
    view = client.post(f"{call}/deal", headers=TOKEN).json()
    while not view["finished"]:
        if view["actor"] == 0:
            view = client.post(f"{call}/act", json={"kind": "call"}, headers=TOKEN).json()
        else:
            view = client.post(f"{call}/step", headers=TOKEN).json()
    return view


def test_a_game_by_requests_refuses_illegal_amounts_and_writes_phh(served):
    web, client, _ = served
    ident = client.post("/api/games", json={"opponents": [{"bot": "call"}, {"bot": "call"}],
                                            "seed": 4}, headers=TOKEN).json()["id"]
    call = f"/api/games/{ident}"
    view = client.post(f"{call}/deal", headers=TOKEN).json()
    while view["actor"] != 0:
        view = client.post(f"{call}/step", headers=TOKEN).json()
    assert view["seats"][1]["cards"] is None  # a bot's cards stay hidden during the hand
    assert "reasoning" not in view
    low, high = view["legal"]["raise"]
    for amount in (high + 1, low - 1, "ten", 2.5):
        response = client.post(f"{call}/act", json={"kind": "raise", "amount": amount},
                               headers=TOKEN)
        assert response.status_code == 400 and "raise" in response.json()["error"]
    same = client.post(f"{call}/view", headers=TOKEN).json()
    assert same["actor"] == 0 and same["pot"] == view["pot"]  # nothing was played instead
    view = client.post(f"{call}/act", json={"kind": "raise", "amount": low}, headers=TOKEN
                       ).json()
    assert "raises to" in view["log"][-1] or view["actor"] != 0
    while not view["finished"]:
        verb, body = ("act", {"kind": "call"}) if view["actor"] == 0 else ("step", None)
        view = client.post(f"{call}/{verb}", json=body, headers=TOKEN).json()
    assert sum(view["result"]["net"]) == 0
    assert all(abs(sum(d["probs"]) - 1) < 1e-9 for d in view["reasoning"])
    table, _ = web.tables.get(ident)
    hands = loads_all((table.folder / "hands.phhs").read_text())
    played = dict(zip(hands[0].players, replay(hands[0]).finishing_stacks, strict=True))
    assert played == {s["name"]: s["stack"] for s in view["seats"]}


def test_the_agents_trace_reaches_the_page_after_each_live_hand(served):
    """The agent's trace lines are read back between hands, so each hand's reasoning carries
    its trace (a writer that held them in a buffer showed rows with no trace)."""
    _, client, _ = served
    ident = client.post("/api/games", json={"opponents": [{"bot": "heuristic"}],
                                            "variant": "limit", "seed": 3},
                        headers=TOKEN).json()["id"]
    streets = []
    for _ in range(3):
        view = _play_to_showdown(client, ident)
        agent = [r for r in view["reasoning"] if r["name"] == "heuristic"]
        assert agent and all(r.get("trace", {}).get("kind") == "decision" for r in agent)
        assert [r["trace"]["street"] for r in agent] == [r["street"] for r in agent]
        streets += [r["street"] for r in agent]
    assert len(set(streets)) > 1  # the hands' own decisions, not the first hand's again


def test_closed_and_idle_games_end_and_nothing_leaks(served):
    web, client, _ = served
    before = threading.active_count()
    for i in range(200):
        ident = client.post("/api/games", json={"opponents": [{"bot": "random"}],
                                                "seed": i}, headers=TOKEN).json()["id"]
        _play_to_showdown(client, ident)
        assert client.post(f"/api/games/{ident}/close", headers=TOKEN).json()["closed"]
    assert len(web.tables) == 0
    assert threading.active_count() <= before + 2  # the thread pool and the bot watchdog
    ident = client.post("/api/games", json={"opponents": [{"bot": "call"}]},
                        headers=TOKEN).json()["id"]
    web.tables.get(ident)[0].touched -= 10  # its tab went away 10 s ago
    assert web.tables.reap() == 1
    assert client.post(f"/api/games/{ident}/view", headers=TOKEN).status_code == 404


def test_acting_out_of_turn_is_a_409(served):
    _, client, _ = served
    ident = client.post("/api/games", json={"opponents": [{"bot": "call"}], "seed": 1},
                        headers=TOKEN).json()["id"]
    view = client.post(f"/api/games/{ident}/deal", headers=TOKEN).json()
    verb = "step" if view["actor"] == 0 else "act"
    if verb == "act":
        assert client.post(f"/api/games/{ident}/act", json={"kind": "call"},
                           headers=TOKEN).status_code == 409


class _Raises(CallBot):
    def act(self, observation):  # type: ignore[no-untyped-def]
        raise RuntimeError("boom")


def test_a_bot_that_raises_checks_or_folds_and_the_page_says_so(served):
    _, client, _ = served
    ident = client.post("/api/games", json={"opponents": [{"bot": f"{__name__}:_Raises"}]},
                        headers=TOKEN).json()["id"]
    view = _play_to_showdown(client, ident)
    assert any("fault" in line and "boom" in line for line in view["log"])


def test_replay_steps_are_the_engine_s_pot_and_stacks(served):
    _, client, root = served
    hands = loads_all((root / "run" / "hands.phhs").read_text())
    listing = client.get("/api/hands", params={"ref": "0/run"}).json()["hands"]
    assert len(listing) == len(hands)
    for i, hand in enumerate(hands):
        steps = client.get("/api/hand", params={"ref": "0/run", "index": i}).json()["steps"]
        assert steps[-1]["stacks"] == list(replay(hand).finishing_stacks)
        total = sum(hand.starting_stacks)
        assert all(s["pot"] + sum(s["stacks"]) == total for s in steps if not s["finished"])
    assert client.get("/api/hand", params={"ref": "0/run", "index": 99}).status_code == 404


def test_a_dir_without_hands_says_how_to_get_them(served, tmp_path):
    _, client, root = served
    (root / "bare").mkdir()
    (root / "bare" / "summary.json").write_text("{}")
    response = client.get("/api/hands", params={"ref": "0/bare"})
    assert response.status_code == 404 and "hand_histories" in response.json()["error"]


def test_run_report_and_the_offline_file(served, capsys):
    _, client, root = served
    data = client.get("/api/report", params={"ref": "0/run"}).json()
    assert [r["raw"] for r in data["rows"]] == [[1.5, 0.5, 2.5], [-1.5, -2.5, -0.5]]
    assert data["chart"]["series"][0]["y"][-1] == sum(2 * i for i in range(6)) / 2
    assert report_main([str(root / "run")]) == 0
    html = (root / "run" / "report.html").read_text()
    fetched = html.replace("http://www.w3.org/2000/svg", "")  # SVG's namespace: a name only
    assert "<script src" not in html and "http://" not in fetched and "https://" not in html
    assert '"kind": "run"' in html and "drawChart" in html


def test_a_replayed_step_carries_the_trace_of_the_decision_that_chose_it(served):
    web, client, root = served
    hand = client.get("/api/hand?ref=0/run&index=0").json()
    assert hand["traced"] is False
    names, steps = hand["names"], hand["steps"]
    first = next(i for i, s in enumerate(steps) if i and s["what"].startswith(names[0] + ":"))
    folder = root / "run" / "bots" / names[0]
    folder.mkdir(parents=True)
    head = '{"block":0,"perm":0,"hand":0,'
    lines = [head + '"seat":0,"kind":"decision","chosen":"first"}',
             '{"block":0,"perm":0,"hand":1,"seat":0,"kind":"decision","chosen":"other hand"}',
             head + '"seat":0,"kind":"end"}', "garbage", head + "not json"]
    (folder / "trace-b0-p0.jsonl").write_text("\n".join(lines) + "\n")
    hand = client.get("/api/hand?ref=0/run&index=0").json()
    assert hand["traced"] is True
    assert hand["steps"][first]["reasoning"] == {"seat": 0, "trace": json.loads(lines[0])}
    assert [s for s in hand["steps"] if "reasoning" in s] == [hand["steps"][first]]


SNG = {
    "entrants": [{"name": "loose", "bot": "random", "params": {"fold": 0.1, "call": 0.7}},
                 {"name": "station", "bot": "call"}, {"name": "raiser", "bot": "raise"}],
    "starting_stack": 300, "payouts": [70, 30], "tournaments": 6, "duplicate": True,
    "seed": 5, "workers": 1,
    "schedule": [{"hands": 4, "blinds": [10, 20]}, {"hands": 4, "blinds": [20, 40]},
                 {"hands": 4, "blinds": [40, 80], "ante": 10}],
}


def _sng(tmp_path: Path, name: str, hands: bool) -> Path:
    """A small duplicate sit-and-go field played by ``holdem sng``."""
    out = tmp_path / "results" / name
    config = tmp_path / f"{name}.yaml"
    config.write_text(json.dumps({**SNG, "output": {"dir": str(out), "hand_histories": hands,
                                                     "plots": False}}))
    assert holdem_main(["sng", str(config), "--quiet"]) == 0
    return out


def _figure(stat: dict[str, Any]) -> list[Any]:
    return [stat["mean"], *(stat["ci95"] or [None, None])]


def test_a_sit_and_go_s_report_is_its_summary_and_it_is_listed(tmp_path: Path) -> None:
    with_hands = _sng(tmp_path, "sng", True)
    _sng(tmp_path, "bare", False)
    web = WebApp([tmp_path / "results"], tmp_path / "sessions", token="tok")
    client = TestClient(web.asgi())
    listing = client.get("/api/list").json()["found"]
    assert {(f["ref"], f["kind"]) for f in listing} == {("0/sng", "sng"), ("0/bare", "sng")}
    summary = json.loads((with_hands / "summary.json").read_text())
    data = client.get("/api/report", params={"ref": "0/sng"}).json()
    assert data["kind"] == "sng" and data["tournaments"] == summary["tournaments"] == 6
    assert [r["name"] for r in data["rows"]] == ["loose", "station", "raiser"]
    for row in data["rows"]:
        bot = summary["bots"][row["name"]]
        for key in ("roi", "average_place", "in_the_money", "prize", "chips"):
            assert row[key] == _figure(bot[key]), (row["name"], key)
        assert row["places"] == [_figure(p) for p in bot["places"]]
        assert row["variance_factor"] == summary["duplicate_variance_reduction"][row["name"]]
    assert data["faults"] == summary["bot_faults"] and data["has_hands"] is True
    rounds = json.loads((with_hands / "stacks.json").read_text())["chips"]
    assert data["chart"]["hands"][-1] == len(rounds)
    assert [s["y"][-1] for s in data["chart"]["series"]] == [float(c) for c in rounds[-1]]
    # its hands replay; a field without them says how to get them
    hands = client.get("/api/hands", params={"ref": "0/sng"}).json()["hands"]
    assert len(hands) == summary["hands"]
    bare_page = client.get("/api/report", params={"ref": "0/bare"}).json()
    assert bare_page["has_hands"] is False
    assert any("hand_histories: true" in n for n in bare_page["notes"])
    # the offline page
    assert report_main([str(with_hands)]) == 0
    html = (with_hands / "report.html").read_text()
    assert '"kind": "sng"' in html and "sngPage" in html and "<script src" not in html
    embedded = json.loads(html.split('id="report-data">')[1].split("</script>")[0]
                          .replace("<\\/", "</"))
    assert embedded["rows"] == data["rows"]


def test_vexbots_search_values_reach_a_live_table_and_a_replay(served, tmp_path):
    """``vexbot``'s trace (its file named by the simulator's convention, not the agent's)
    reaches the page after a live hand, its chances the row it stated; and a replayed hand
    of a traced run finds it at the step of each of its actions."""
    web, client, root = served
    ident = client.post("/api/games", json={"opponents": [{"bot": "vexbot"}],
                                            "variant": "limit", "seed": 2},
                        headers=TOKEN).json()["id"]
    for _ in range(2):
        view = _play_to_showdown(client, ident)
        searched = [r for r in view["reasoning"] if r["name"] == "vexbot"]
        assert searched
        for r in searched:
            trace = r["trace"]
            assert [a["action"] for a in trace["actions"]] == r["actions"]
            assert [a["probability"] for a in trace["actions"]] == pytest.approx(r["probs"])
            assert trace["chosen"] == r["chosen"]
    config = tmp_path / "vex.yaml"
    config.write_text(
        "game: {variant: limit, blinds: [1, 2], small_bet: 2, stack: 200, reset_stacks: true}\n"
        "seats:\n  - {name: vex, bot: vexbot, params: {trace: true}}\n"
        "  - {name: station, bot: call}\n"
        f"hands: 4\nseed: 3\nduplicate: false\nblock_size: 4\nworkers: 1\n"
        f"output: {{dir: {root / 'vex'}, hand_histories: true, plots: false}}\n")
    from simulator.cli import main as holdem
    assert holdem(["run", str(config), "--quiet"]) == 0
    hands = client.get("/api/hands?ref=0/vex/hands.phhs").json()
    reasoned = 0
    for index in range(len(hands["hands"])):
        hand = client.get(f"/api/hand?ref=0/vex/hands.phhs&index={index}").json()
        seat = hand["names"].index("vex")
        acted = [s for s in hand["steps"] if s["what"].startswith("vex:")]
        shown = [s for s in hand["steps"] if "reasoning" in s]
        assert [s["reasoning"]["seat"] for s in shown] == [seat] * len(acted)
        assert all(s["reasoning"]["trace"]["hand"] == index for s in shown)
        reasoned += len(shown)
    assert reasoned >= 4
