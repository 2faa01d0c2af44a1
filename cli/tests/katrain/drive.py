"""KaTrain's own engine, game and AI code against `kosumi analysis`, headless.

    python drive.py KOSUMI GAME.sgf [--visits 24] [--fast-visits 8]
    python drive.py --check          # is KaTrain importable headless? (exit 3 if not)

Run with the Python of a KaTrain install (`pip install katrain`, which brings
Kivy). Only `katrain.core.*` is imported, never the GUI: no window opens.

KaTrain is given the kosumi binary as its `katago`, its own shipped model and
analysis config (12 positions of 8 threads, which kosumi cuts to the cores),
and a human model that is an empty placeholder file (kosumi never reads it).
Then, through KaTrain's own `Game`, `GameNode`, `KataGoEngine` and
`generate_ai_move`:

1. the game is loaded and every position analysed, as KaTrain does on load;
2. every review mode of KaTrain's `Game` runs on a middle-game position:
   extra, equalize, alternative, local, a region of interest, sweep, ponder
   and stop, the game re-analysed (whole, a move range, mistakes only),
   self-play setup, resetting a node's analysis, the game report, and the
   SGF saved with its analysis and read back;
3. every AI strategy KaTrain registers (the 16 it offers and `ai:settle`)
   plays a move from a middle-game and a late position.

Everything KaTrain logs at its error level, every exception (in this thread
or KaTrain's), every error status and every failed check is collected; the
summary lists them and the exit status is 1 if there is any.
"""

import argparse
import os
import shutil
import sys
import tempfile
import threading
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


def headless_kivy(home):
    """Kivy quiet, off our argv and ~/.kivy; set before any Kivy import."""
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ["KIVY_NO_CONSOLELOG"] = "1"
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_HOME"] = home


def versions():
    from importlib.metadata import version

    return f"KaTrain {version('katrain')}, Kivy {version('kivy')}, Python {sys.version.split()[0]}"


def check():
    """Exit 0 if KaTrain's core imports without a window, 3 if KaTrain is missing."""
    home = tempfile.mkdtemp(prefix="kivy-home-")
    headless_kivy(home)
    try:
        import katrain.core.ai  # noqa: F401
        import katrain.core.base_katrain  # noqa: F401
        import katrain.core.engine  # noqa: F401
        import katrain.core.game  # noqa: F401
    except ImportError as e:
        print(f"KaTrain is not importable: {e}")
        sys.exit(3)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    windowed = sorted(m for m in sys.modules if m.startswith(("kivy.core", "kivy.uix", "kivy.graphics", "kivy.app")))
    if windowed:
        print(f"window modules were imported: {windowed}")
        sys.exit(1)
    print(versions())


class Recorder:
    """Stands in for sys.stdout / sys.stderr while KaTrain runs: keeps what it
    prints (tracebacks from its threads, its `print` errors)."""

    def __init__(self):
        self.text = []
        self.lock = threading.Lock()

    def write(self, s):
        with self.lock:
            self.text.append(s)
        return len(s)

    def flush(self):
        pass

    def error_lines(self):
        lines = "".join(self.text).splitlines()
        return [line for line in lines if line.startswith(("Traceback", "ERROR", "Error")) or "Exception" in line]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kosumi", nargs="?", help="the kosumi binary")
    ap.add_argument("sgf", nargs="?", help="a 19x19 game record")
    ap.add_argument("--check", action="store_true", help="only check that KaTrain imports headless")
    ap.add_argument("--visits", type=int, default=24, help="KaTrain's max_visits (default 24)")
    ap.add_argument("--fast-visits", type=int, default=8, help="KaTrain's fast_visits (sweep; default 8)")
    ap.add_argument("--config", help="the engine's analysis config (default: KaTrain's own)")
    ap.add_argument("--model", help="the engine's model (default: KaTrain's own)")
    ap.add_argument(
        "--human-model",
        help="the engine's human model (default: an empty placeholder file, which kosumi never reads; '' for none)",
    )
    ap.add_argument("--timeout", type=float, default=300, help="give up after this many seconds")
    args = ap.parse_args()
    if args.check:
        return check()
    if not (args.kosumi and args.sgf):
        ap.error("give the kosumi binary and a game record (or --check)")

    work = tempfile.mkdtemp(prefix="katrain-drive-")
    headless_kivy(os.path.join(work, "kivy-home"))
    # KaTrainBase reads the user config from ~/.katrain unless told to use the
    # package's; the engine passes homeDataDir=~/.katrain to KataGo. Keep both here.
    os.environ["HOME"] = work

    from katrain.core.ai import generate_ai_move, game_report
    from katrain.core.base_katrain import KaTrainBase
    from katrain.core.constants import (
        ADDITIONAL_MOVE_ORDER,
        AI_DEFAULT,
        AI_SETTLE_STONES,
        AI_SIMPLE_OWNERSHIP,
        AI_STRATEGIES,
        OUTPUT_DEBUG,
        OUTPUT_ERROR,
        OUTPUT_INFO,
        OUTPUT_KATAGO_STDERR,
        PLAYER_AI,
        STATUS_ERROR,
    )
    from katrain.core.engine import KataGoEngine
    from katrain.core.game import Game, KaTrainSGF
    from katrain.core.utils import find_package_resource
    from pysgf import Move

    out = sys.__stdout__
    started = time.time()

    def say(text):
        out.write(text + "\n")
        out.flush()

    class MoveTree:
        insert_node = None

        def redraw(self):
            pass

        def redraw_tree_trigger(self):
            pass

    class Controls:
        """What Game asks of the GUI: a status line and the move tree."""

        def __init__(self, host):
            self.host = host
            self.move_tree = MoveTree()

        def set_status(self, message, level=None, *_args, **_kwargs):
            if level == STATUS_ERROR:
                self.host.log(f"status: {message}", OUTPUT_ERROR)

    class Host(KaTrainBase):
        """The smallest KaTrain: KaTrainBase's settings and players, a log that
        records instead of printing, no GUI."""

        def __init__(self):
            self.lock = threading.Lock()
            self.errors = []
            self.engine_stderr = []
            self.warnings = []
            self.pondering = False
            self.controls = Controls(self)
            super().__init__(force_package_config=True, debug_level=OUTPUT_INFO)

        def log(self, message, level=OUTPUT_INFO):
            message = str(message)
            with self.lock:
                if level == OUTPUT_ERROR:
                    self.errors.append(message)
                elif level == OUTPUT_KATAGO_STDERR:
                    self.engine_stderr.append(message)
                elif "'warning'" in message and "received from KataGo" in message:
                    self.warnings.append(message)

        def __call__(self, message, *args, **kwargs):
            # The GUI's message queue; the engine calls it for its recovery popup.
            level = OUTPUT_ERROR if "popup" in message else OUTPUT_DEBUG
            self.log(f"GUI message {message} {args}", level)

        def update_state(self, redraw_board=False):
            pass

    recorder = Recorder()
    sys.stdout = recorder
    sys.stderr = recorder
    host = Host()

    def thread_exception(hook_args):
        host.log(
            "exception in thread "
            + "".join(traceback.format_exception(hook_args.exc_type, hook_args.exc_value, hook_args.exc_traceback)),
            OUTPUT_ERROR,
        )

    threading.excepthook = thread_exception

    checks = []  # (what, ok, detail)

    def check_that(what, ok, detail=""):
        checks.append((what, bool(ok), detail))
        return ok

    # The engine settings a KaTrain user would give: kosumi as KataGo, KaTrain's
    # own model and analysis config, a human model file kosumi never opens.
    human_model = args.human_model
    if human_model is None:
        human_model = os.path.join(work, "human-model-placeholder.bin.gz")
        open(human_model, "wb").close()
    analysis_cfg = os.path.abspath(args.config) if args.config else find_package_resource(host.config("engine/config"))
    engine_cfg = {
        **host.config("engine"),
        "config": analysis_cfg,
        "model": os.path.abspath(args.model) if args.model else host.config("engine/model"),
        "katago": os.path.abspath(args.kosumi),
        "humanlike_model": os.path.abspath(human_model) if human_model else "",
        "max_visits": args.visits,
        "fast_visits": args.fast_visits,
        "allow_recovery": False,
    }
    host._config["engine"] = engine_cfg
    cfg_text = open(analysis_cfg).read()

    def watchdog():
        time.sleep(args.timeout)
        say(f"FAILED: the run took more than {args.timeout:.0f} s")
        report()
        os._exit(2)

    engine = None
    game = None
    ai_results = []  # (position, mode, move or None, seconds, detail)
    review = []  # (mode, ok, detail, seconds)

    def report():
        say(f"{args.kosumi} under {versions()}, headless; max_visits {args.visits}, fast_visits {args.fast_visits}")
        say(f"engine command: {' '.join(engine.command) if engine else '-'}")
        say(
            f"analysis config {analysis_cfg}: "
            + ", ".join(l.strip() for l in cfg_text.splitlines() if "Threads" in l and not l.startswith("#"))
        )
        for line in host.engine_stderr:
            say(f"  engine stderr: {line}")
        for mode, ok, detail, secs in review:
            say(f"review {mode:<22} {'ok' if ok else 'FAILED'} {secs:5.1f} s  {detail}")
        played = {}
        for position, mode, move, secs, detail in ai_results:
            played.setdefault(mode, []).append(move is not None)
            say(f"AI {position:<6} {mode:<15} {move or 'FAILED':<5} {secs:4.1f} s  {detail}")
        offered = [m for m in AI_STRATEGIES if played.get(m) and all(played[m])]
        extra = [m for m in played if m not in AI_STRATEGIES and all(played[m])]
        say(
            f"AI modes that played every time: {len(offered)} of the {len(AI_STRATEGIES)} KaTrain offers"
            + (f", and {', '.join(extra)}" if extra else "")
        )
        failed_checks = [c for c in checks if not c[1]]
        say(f"checks: {len(checks) - len(failed_checks)} of {len(checks)} passed")
        for what, _, detail in failed_checks:
            say(f"  check failed: {what}: {detail}")
        say(f"queries KaTrain sent: {engine.query_counter if engine else 0}")
        say(f"warnings KaTrain received from the engine: {len(host.warnings)} (logged at debug level)")
        for w in sorted({w.split("'warning': ", 1)[-1] for w in host.warnings})[:5]:
            say(f"  e.g. {w}")
        errors = host.errors + recorder.error_lines()
        say(f"errors (logged by KaTrain at its error level, exceptions, failed modes): {len(errors)}")
        for e in errors[:20]:
            lines = e.strip().splitlines() or [""]
            say(f"  {lines[0][:300]}" + (f" ... {lines[-1][:300]}" if len(lines) > 1 else ""))
        say(f"total {time.time() - started:.1f} s")
        return errors, failed_checks

    threading.Thread(target=watchdog, daemon=True).start()

    class EngineDied(RuntimeError):
        """The engine process is gone: nothing after this can run."""

    def wait_until(what, condition, timeout=120):
        t0 = time.time()
        while not condition():
            if not engine.check_alive():
                raise EngineDied(f"the engine is not running (waiting for {what})")
            if time.time() - t0 > timeout:
                raise TimeoutError(f"{what}: not within {timeout} s")
            time.sleep(0.02)

    def settle():
        wait_until("the engine to finish its queries", engine.is_idle)

    def run_mode(mode, fn):
        t0 = time.time()
        errors_before = len(host.errors)
        try:
            detail = fn() or ""
            ok = len(host.errors) == errors_before
            if not ok:
                detail += f" ({len(host.errors) - errors_before} KaTrain errors)"
        except Exception as e:
            ok, detail = False, f"{type(e).__name__}: {e}"
            host.log(f"{mode}: {traceback.format_exc()}", OUTPUT_ERROR)
            if isinstance(e, EngineDied):
                review.append((mode, ok, detail, time.time() - t0))
                raise
        review.append((mode, ok, detail, time.time() - t0))

    try:
        engine = KataGoEngine(host, engine_cfg)
        check_that("the engine starts", engine.check_alive())

        # 1. Load the game; KaTrain analyses every node (Game.__init__).
        def load():
            nonlocal game
            tree = KaTrainSGF.parse_file(os.path.abspath(args.sgf))
            game = Game(host, engine, move_tree=tree, sgf_filename=args.sgf)
            host.game = game
            nodes = game.root.nodes_in_tree
            wait_until("every position analysed", lambda: all(n.analysis_complete for n in nodes))
            settle()
            size = game.board_size
            check_that("19x19", size == (19, 19), str(size))
            bad = []
            for n in nodes:
                a = n.analysis
                if not (
                    n.root_visits >= 1
                    and a["moves"]
                    and len(a["ownership"] or []) == 361
                    and len(a["policy"] or []) == 362
                    # The engine's own candidates; KaTrain adds the played move
                    # from the next position's rootInfo, which has no ownership.
                    and all(
                        len(d.get("ownership", [])) == 361
                        for d in a["moves"].values()
                        if d["order"] < ADDITIONAL_MOVE_ORDER
                    )
                ):
                    bad.append(n.depth)
            check_that("every position has candidates, ownership, per-move ownership, policy", not bad, str(bad[:10]))
            return f"{len(nodes)} positions ({len(nodes) - 1} moves)"

        run_mode("load and analyse game", load)
        main_line = [game.root]
        while main_line[-1].children:
            main_line.append(main_line[-1].children[0])
        mid = main_line[len(main_line) // 2]
        late = main_line[max(1, len(main_line) - 6)]

        def at(node):
            game.set_current_node(node)
            wait_until("the position's analysis", lambda: node.analysis_complete)

        # 2. Review modes, on the middle-game position.
        def extra():
            at(mid)
            before = mid.root_visits
            game.analyze_extra("extra")
            settle()
            check_that("extra adds visits", mid.root_visits > before, f"{before} -> {mid.root_visits}")
            return f"root visits {before} -> {mid.root_visits}"

        def equalize():
            at(mid)
            game.analyze_extra("equalize")
            settle()
            visits = [d["visits"] for d in mid.analysis["moves"].values() if d["order"] < ADDITIONAL_MOVE_ORDER]
            check_that("equalize gives every candidate the same visits", min(visits) == max(visits), str(visits))
            return f"{len(visits)} candidates at {min(visits)}..{max(visits)} visits"

        def alternative():
            at(mid)
            before = set(mid.analysis["moves"])
            game.analyze_extra("alternative")
            settle()
            new = set(mid.analysis["moves"]) - before
            check_that("alternative finds moves not yet analysed", new, "")
            return f"{len(new)} new candidates"

        def local():
            at(mid)
            game.analyze_extra("local")
            settle()
            return f"{len(mid.analysis['moves'])} candidates"

        def region():
            at(mid)
            x, y = mid.move.coords
            legal = sum(1 for p in mid.policy if p >= 0)
            x1, x2, y1, y2 = max(0, x - 2), min(18, x + 2), max(0, y - 2), min(18, y + 2)
            game.set_region_of_interest([x1, x2, y1, y2])
            check_that("a region is set", game.region_of_interest == [x1, x2, y1, y2], str(game.region_of_interest))
            try:
                game.analyze_extra("extra")
                settle()
            finally:
                game.region_of_interest = None
            answered = [m for m, d in mid.analysis["moves"].items() if d["order"] < ADDITIONAL_MOVE_ORDER]
            outside = [
                m
                for m in answered
                if m != "pass" and not (x1 <= Move.from_gtp(m).coords[0] <= x2 and y1 <= Move.from_gtp(m).coords[1] <= y2)
            ]
            check_that("region analysis stays inside the region", answered and not outside, f"outside: {outside}")
            # As KataGo's: avoidMoves steer the search, the policy stays whole.
            kept = sum(1 for p in mid.policy if p >= 0)
            check_that("region analysis keeps the whole policy", kept == legal, f"{kept} of {legal} moves")
            return f"{len(answered)} candidates inside {Move((x1, y1)).gtp()}-{Move((x2, y2)).gtp()}"

        def sweep():
            at(mid)
            game.analyze_extra("sweep")
            settle()
            legal = sum(1 for p in mid.policy[:-1] if p >= 0)
            swept = sum(1 for d in mid.analysis["moves"].values() if d["visits"] >= args.fast_visits)
            check_that("sweep analyses every legal move", swept >= legal, f"{swept} of {legal}")
            return f"{swept} of {legal} legal moves at {args.fast_visits}+ visits"

        def ponder():
            at(mid)
            before = mid.root_visits
            host.pondering = True
            game.analyze_extra("ponder")
            time.sleep(0.3)
            wait_until("a ponder report", lambda: mid.root_visits > before, timeout=30)
            time.sleep(1.0)
            host.pondering = False
            game.analyze_extra("stop")
            settle()
            check_that("ponder adds visits", mid.root_visits > before, f"{before} -> {mid.root_visits}")
            return f"root visits {before} -> {mid.root_visits}"

        def is_mistake(n):
            threshold = host.config("trainer/eval_thresholds")[-4]
            return max(c.points_lost or 0 for c in [n] + n.children) > threshold

        def reanalyse(visits, which, **kwargs):
            """Game re-analysis: the positions `which` picks get `visits`, the others are left alone."""

            def go():
                at(mid)
                nodes = game.root.nodes_in_tree
                before = {id(n): n.root_visits for n in nodes}
                expected = [n for n in nodes if which(n)]
                game.analyze_extra("game", visits=visits, **kwargs)
                settle()
                short = [n.depth for n in expected if n.root_visits < visits]
                asked = {id(n) for n in expected}
                touched = [n.depth for n in nodes if id(n) not in asked and n.root_visits != before[id(n)]]
                check_that(f"re-analysis {kwargs}: every position asked for", expected and not short, str(short))
                check_that(f"re-analysis {kwargs}: only those", not touched, str(touched))
                return f"{len(expected)} positions at {visits} visits"

            return go

        def selfplay():
            at(mid)
            until = mid.depth + 6
            game.selfplay(until, target_b_advantage=0)
            wait_until("self-play to reach its move", lambda: game.current_node.depth >= until, timeout=60)
            settle()
            return f"played to move {game.current_node.depth}"

        def reset():
            at(mid)
            game.reset_current_analysis()
            wait_until("the analysis again", lambda: mid.analysis_complete)
            settle()
            return f"root visits {mid.root_visits}"

        def report_and_sgf():
            at(mid)
            thresholds = host.config("trainer/eval_thresholds")
            stats, _histogram, _losses = game_report(game, thresholds)
            check_that("game report has both players", stats["B"] and stats["W"], str(stats))
            path = os.path.join(work, "reviewed.sgf")
            trainer = {**host.config("trainer"), "save_analysis": True, "save_marks": True}
            game.write_sgf(path, trainer_config=trainer)
            tree = KaTrainSGF.parse_file(path)
            loaded = [n for n in tree.nodes_in_tree if n.analysis_from_sgf]
            ok = [n for n in loaded if n.load_analysis() and n.analysis_complete]
            check_that("the SGF's saved analysis reads back", ok and len(ok) == len(loaded), f"{len(ok)} of {len(loaded)}")
            return (
                f"accuracy B {stats['B']['accuracy']:.0f} W {stats['W']['accuracy']:.0f}; "
                f"{len(ok)} nodes' analysis saved and read back"
            )

        for name, fn in [
            ("extra", extra),
            ("equalize", equalize),
            ("alternative", alternative),
            ("local", local),
            ("region of interest", region),
            ("sweep", sweep),
            ("ponder and stop", ponder),
            ("re-analyse game", reanalyse(2 * args.visits, lambda n: True)),
            ("re-analyse moves 40-60", reanalyse(3 * args.visits, lambda n: 40 <= n.depth - 1 <= 60, move_range=[40, 60])),
            ("re-analyse mistakes", reanalyse(4 * args.visits, is_mistake, mistakes_only=True)),
            ("self-play setup", selfplay),
            ("reset analysis", reset),
            ("report and SGF", report_and_sgf),
        ]:
            run_mode(name, fn)

        # 3. Every AI strategy, as KaTrain's GUI calls it (_do_ai_move).
        modes = list(AI_STRATEGIES) + [AI_SETTLE_STONES]
        for label, node in [("middle", mid), ("late", late)]:
            for mode in modes:
                t0 = time.time()
                errors_before = len(host.errors)
                move, detail = None, ""
                try:
                    at(node)
                    bw = node.next_player
                    host.update_player(bw, player_type=PLAYER_AI, player_subtype=mode)
                    # ai:settle has no settings of its own in KaTrain's config: ai:simple's.
                    settings = host.config(f"ai/{mode}") or host.config(f"ai/{AI_SIMPLE_OWNERSHIP}")
                    result = {}

                    def play():
                        try:
                            result["move"] = generate_ai_move(game, mode, settings)
                        except Exception as e:  # KaTrain's GUI logs these from its message loop
                            result["error"] = f"{type(e).__name__}: {e}"
                            host.log(f"generate_ai_move {mode}: {traceback.format_exc()}", OUTPUT_ERROR)

                    worker = threading.Thread(target=play, daemon=True)
                    worker.start()
                    worker.join(60)
                    if worker.is_alive():
                        raise TimeoutError("no move within 60 s")
                    if "error" in result:
                        raise RuntimeError(result["error"])
                    played, played_node = result["move"]
                    if played is None or played_node is None:
                        raise RuntimeError(f"no move played ({played})")
                    if played_node.parent is not node or played_node.move != played:
                        raise RuntimeError("the move was not played on the position")
                    wait_until("the AI move's own analysis", lambda: played_node.analysis_complete)
                    settle()
                    if len(host.errors) > errors_before:
                        raise RuntimeError(f"{len(host.errors) - errors_before} KaTrain errors")
                    thoughts = (played_node.ai_thoughts or "").strip().replace("\n", " ")
                    if mode != AI_DEFAULT and thoughts.startswith("Default strategy"):
                        raise RuntimeError(f"fell back to ai:default: {thoughts[:90]}")
                    move = played.gtp()
                    detail = thoughts[:90]
                except Exception as e:
                    detail = f"{type(e).__name__}: {e}"
                    if len(host.errors) == errors_before:
                        host.log(f"AI {mode} at move {node.depth}: {detail}", OUTPUT_ERROR)
                ai_results.append((label, mode, move, time.time() - t0, detail))
                if not engine.check_alive():
                    raise EngineDied("the engine is not running")
                host.update_player(node.next_player)

    except EngineDied as e:
        host.log(f"stopped: {e}", OUTPUT_ERROR)
    except Exception:
        host.log(f"driver: {traceback.format_exc()}", OUTPUT_ERROR)
    finally:
        if engine is not None:
            engine.shutdown(finish=False)
        sys.stdout, sys.stderr = sys.__stdout__, sys.__stderr__

    errors, failed_checks = report()
    shutil.rmtree(work, ignore_errors=True)
    clamp = [line for line in host.engine_stderr if "would overload" in line]
    if not args.config and (os.cpu_count() or 1) < 12 * 8 and not clamp:
        say("FAILED: kosumi did not say it cut KaTrain's 12 x 8 threads to the cores")
        return 1
    failed_modes = [r for r in ai_results if r[2] is None]
    failed_review = [r for r in review if not r[1]]
    if errors or failed_checks or failed_modes or failed_review:
        say("FAILED")
        return 1
    say("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
