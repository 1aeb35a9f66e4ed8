"""Shared plumbing for the benchmark scripts in ``examples/benchmarks/``.

Every benchmark script follows the same pattern:

* the *parent* (what you run) parses options, then runs each contender in a fresh **child process**
  (``python script.py --child NAME --params JSON``), so that every contender starts from a clean
  interpreter, its peak memory can be measured on its own, and environment variables such as
  ``RAYON_NUM_THREADS`` apply before the library is loaded;
* the *child* times only the work itself (imports and loading vocabularies are outside the timed
  region), and prints one ``RESULT {json}`` line with its timings and ``getrusage`` peak RSS;
* the parent samples the memory of the child's whole process tree (psutil, every 20 ms; PSS, so pages
  a forked worker shares with its parent count once) to catch the combined peak of a main process
  plus worker processes, then prints a Markdown table and the exact command that produced it.

Nothing here is imported by the toolkit; it is example code.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
SHARED = Path(os.environ.get("TOOLKIT_SHARED", ROOT.parent / "shared")).resolve()
CORPORA = SHARED / "corpora"
ENGLISH = CORPORA / "english"
GPT2_DIR = CORPORA / "vocab" / "gpt2"
BERT_UNCASED = CORPORA / "vocab" / "bert" / "bert-base-uncased-vocab.txt"
CACHE_DIR = Path(os.environ.get("TOOLKIT_BENCH_CACHE", Path(tempfile.gettempdir()) / "tokenizer-toolkit-bench"))

BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]

# Make the repository importable when a script is run from a checkout without `pip install -e .`.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def timed(fn: Callable[[], Any], reps: int) -> tuple[list[float], Any]:
    """Wall times of ``reps`` calls of ``fn`` and the last result."""
    times, out = [], None
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return times, out


def read_lines(path: str) -> tuple[str, list[str]]:
    """The file's text and its lines (split on ``\\n`` only, each keeping it)."""
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    lines = text.split("\n")
    last = lines.pop()
    lines = [line + "\n" for line in lines]
    if last:
        lines.append(last)
    return text, lines


def gutenberg(*parts: int) -> list[str]:
    """Paths of ``gutenberg_partNN.txt`` (1-based part numbers)."""
    return [str(ENGLISH / f"gutenberg_part{p:02d}.txt") for p in parts]


def have_shared() -> bool:
    return ENGLISH.is_dir()


# ------------------------------------------------------------------------------------ quick mode
def fallback_text() -> str:
    """English text that ships with Python (used when ``../shared`` is absent)."""
    from pydoc_data.topics import topics

    return "".join(topics[k] for k in sorted(topics))


def quick_files(n_files: int, nbytes: int, *, tag: str = "quick") -> list[str]:
    """``n_files`` small UTF-8 files of about ``nbytes`` each, cut at line ends, in the cache dir.

    They are slices of the Gutenberg parts (part01, part02, ...) when ``../shared`` exists, otherwise
    consecutive slices of ``pydoc_data.topics``.
    """
    out_dir = CACHE_DIR / "slices"
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    fallback = None if have_shared() else fallback_text().encode("utf-8")
    for i in range(n_files):
        path = out_dir / f"{tag}_{i + 1}_{nbytes}{'' if fallback is None else '_pydoc'}.txt"
        if not path.exists():
            if fallback is None:
                with open(gutenberg(i + 1)[0], "rb") as fh:
                    data = fh.read(nbytes)
            else:
                data = fallback[i * nbytes : (i + 1) * nbytes] or fallback[:nbytes]
            data = data[: data.rfind(b"\n") + 1] or data
            data = data.decode("utf-8", "ignore").encode("utf-8")
            tmp = path.with_suffix(".tmp")
            tmp.write_bytes(data)
            tmp.replace(path)
        paths.append(str(path))
    return paths


def slice_file(path: str, max_bytes: int | None) -> str:
    """``path`` itself, or a copy of its first ``max_bytes`` bytes (cut at a line end) in the cache dir."""
    if not max_bytes or os.path.getsize(path) <= max_bytes:
        return path
    out = CACHE_DIR / "slices" / f"{Path(path).stem}_{max_bytes}.txt"
    if not out.exists():
        out.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "rb") as fh:
            data = fh.read(max_bytes)
        tmp = out.with_suffix(".tmp")
        tmp.write_bytes(data[: data.rfind(b"\n") + 1])
        tmp.replace(out)
    return str(out)


def total_mb(paths: Iterable[str]) -> float:
    return sum(os.path.getsize(p) for p in paths) / 1e6


# ------------------------------------------------------------------------------------ machine / load
def loadavg() -> tuple[float, float, float]:
    return os.getloadavg()


def wait_for_load(max_load: float | None, timeout: float, *, stream: Any = sys.stderr) -> float:
    """Sleep until the 1-minute load average is below ``max_load`` (or ``timeout`` seconds passed)."""
    load = loadavg()[0]
    if not max_load:
        return load
    deadline = time.monotonic() + timeout
    while load >= max_load and time.monotonic() < deadline:
        print(f"[bench] load average {load:.2f} >= {max_load}; waiting...", file=stream, flush=True)
        time.sleep(30)
        load = loadavg()[0]
    if load >= max_load:
        print(f"[bench] WARNING: load average still {load:.2f} after {timeout:.0f}s; measuring anyway",
              file=stream, flush=True)
    return load


def _cpu_busy_seconds() -> float | None:
    """Busy CPU seconds of the whole machine so far (all cores; Linux ``/proc/stat``), or None."""
    try:
        with open("/proc/stat") as fh:
            fields = [int(x) for x in fh.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def other_cpu(interval: float = 3.0) -> float | None:
    """Cores kept busy by *other* processes over ``interval`` seconds (we only sleep meanwhile)."""
    before = _cpu_busy_seconds()
    if before is None:
        return None
    time.sleep(interval)
    after = _cpu_busy_seconds()
    return None if after is None else (after - before) / interval


#: Set by ``common_args`` users: before each child run, wait until other processes use fewer cores.
QUIET: dict[str, float | None] = {"max_other_cpu": None, "timeout": 3600.0}
#: Other processes' CPU use (cores) measured during each child run, for the report.
OTHER_LOAD: list[float] = []


def wait_for_quiet_cpu(stream: Any = sys.stderr) -> None:
    limit = QUIET["max_other_cpu"]
    if limit is None:
        return
    deadline = time.monotonic() + float(QUIET["timeout"] or 0)
    while True:
        used = other_cpu()
        if used is None or used < limit:
            return
        if time.monotonic() > deadline:
            print(f"[bench] WARNING: other processes still use {used:.2f} cores; measuring anyway", file=stream)
            return
        print(f"[bench] other processes use {used:.2f} cores (limit {limit}); waiting...", file=stream, flush=True)
        time.sleep(15)


def other_load_note() -> str:
    if not OTHER_LOAD:
        return ""
    return (f"CPU used by other processes during the measured child runs: mean {statistics.mean(OTHER_LOAD):.2f} "
            f"cores, max {max(OTHER_LOAD):.2f} cores (of {os.cpu_count()}; /proc/stat minus our processes).")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def library_versions() -> dict[str, str]:
    from importlib import metadata

    out = {"python": platform.python_version()}
    for name in ("tokenizer-toolkit", "tokenizers", "tiktoken", "sentencepiece", "regex", "pydantic", "psutil"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "absent"
    return out


def machine_line() -> str:
    v = library_versions()
    libs = ", ".join(f"{k} {val}" for k, val in v.items())
    return f"{os.cpu_count()} CPUs ({cpu_model()}), {platform.system()} {platform.release()}; {libs}"


# ------------------------------------------------------------------------------------ formatting
def command_line() -> str:
    """The command that is running, as a user would type it from the repository root."""
    script = os.path.relpath(os.path.abspath(sys.argv[0]), os.getcwd())
    return shlex.join([".venv/bin/python", script, *sys.argv[1:]])


def md_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    def cell(v: Any) -> str:
        return str(v).replace("|", "\\|")

    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def fmt_s(seconds: float | None) -> str:
    return "–" if seconds is None else (f"{seconds:.3f}" if seconds < 10 else f"{seconds:.1f}")


def fmt_mb(nbytes_kb: float | None) -> str:
    """KiB (as ``ru_maxrss`` reports on Linux) → MB string."""
    return "–" if not nbytes_kb else f"{nbytes_kb * 1024 / 1e6:,.0f}"


def fmt_ratio(x: float | None) -> str:
    return "–" if x is None else f"{x:.2f}×"


def med(values: Sequence[float]) -> float:
    return statistics.median(values)


def spread(values: Sequence[float]) -> str:
    """``median (min–max, n=N)`` or just the value for one run."""
    if len(values) == 1:
        return fmt_s(values[0])
    return f"{fmt_s(med(values))} ({fmt_s(min(values))}–{fmt_s(max(values))}, n={len(values)})"


def header(title: str) -> None:
    la = loadavg()
    print(f"\n## {title}\n")
    print(f"Command: `{command_line()}`  ")
    print(f"Machine: {machine_line()}  ")
    print(f"Load average at start: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}\n", flush=True)


def footer() -> None:
    la = loadavg()
    note = other_load_note()
    print(f"\nLoad average at end: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}" + (f"  \n{note}" if note else ""), flush=True)


def clear_caches(tok: Any) -> None:
    """Empty the encoding caches of a toolkit ``Tokenizer`` (for *cold* measurements)."""
    tok.clear_cache()


def cache_entries(tok: Any) -> int:
    """Entries held in the pipeline's and the model's encoding caches."""
    from toolkit.cache import BoundedCache

    model_caches = [v for v in vars(tok.model).values() if isinstance(v, BoundedCache)]
    return sum(len(c) for c in [tok._caches.raw, *tok._caches.tokens.values(), *model_caches])


def input_chunks(text: str, limit: int | None = None) -> list[str]:
    """``text`` cut into parts the toolkit accepts in one call (``toolkit.limits.MAX_INPUT_CHARS``).

    Cuts fall after a lone ``\n`` between two non-space characters (``x\ny`` → ``x\n`` | ``y``). No
    GPT-2 / cl100k pre-token spans such a point: a piece starts with at most a plain space, and the
    lone ``\n`` is a piece of its own both inside the whole text and at the end of a part. (A cut
    after ``\n\n`` would not do: at the end of a part the pattern's ``\s++$`` keeps ``\n\n`` as one
    piece, inside the text it is two.) So the ids of the parts joined equal the ids of the whole text,
    as tiktoken encodes it in one call; the benchmark checks it.
    """
    if limit is None:
        try:
            from toolkit import limits

            limit = int(limits.MAX_INPUT_CHARS)
        except (ImportError, AttributeError):
            return [text]
    parts, start, n = [], 0, len(text)
    while n - start > limit:
        cut = text.rfind("\n", start, start + limit)
        while cut > start and (text[cut + 1 : cut + 2].isspace() or text[cut - 1 : cut].isspace()):
            cut = text.rfind("\n", start, cut)
        if cut <= start:
            raise ValueError("no safe cut point (a lone newline between non-space characters) within the limit")
        parts.append(text[start : cut + 1])
        start = cut + 1
    parts.append(text[start:])
    return parts


def ids_digest(ids: Iterable[int]) -> str:
    """A short digest of an id sequence, to check that contenders in other processes agree."""
    return hashlib.sha256(array("q", ids).tobytes()).hexdigest()[:16]


# ------------------------------------------------------------------------------------ child processes
class _TreeSampler(threading.Thread):
    """Samples the memory of a process and all its descendants (needs psutil; else a no-op).

    Two sums are tracked: RSS (counts pages shared between a parent and its forked workers once per
    process, so it overstates a process tree) and PSS (each shared page divided among its sharers,
    so the sum is the tree's real footprint). ``peak_pss_kb`` is the figure to compare.
    """

    def __init__(self, pid: int, interval: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.pid = pid
        self.interval = interval
        self.peak_kb = 0
        self.peak_pss_kb = 0
        self._stop_event = threading.Event()
        try:
            import psutil

            self._psutil: Any = psutil
        except ImportError:
            self._psutil = None

    def run(self) -> None:
        if self._psutil is None:
            return
        ps = self._psutil
        try:
            root = ps.Process(self.pid)
        except ps.Error:
            return
        while not self._stop_event.is_set():
            try:
                procs = [root, *root.children(recursive=True)]
            except ps.Error:
                return
            rss = pss = 0
            for p in procs:
                try:
                    info = p.memory_full_info()
                    rss += info.rss
                    pss += getattr(info, "pss", info.rss)
                except ps.Error:
                    pass
            self.peak_kb = max(self.peak_kb, rss // 1024)
            self.peak_pss_kb = max(self.peak_pss_kb, pss // 1024)
            self._stop_event.wait(self.interval)

    def stop(self) -> None:
        self._stop_event.set()
        self.join()


def run_child(
    script: str, contender: str, params: Mapping[str, Any], *, env: Mapping[str, str | None] | None = None,
    timeout: float | None = None,
) -> dict[str, Any]:
    """Run ``script --child contender --params JSON`` and return its result dict.

    Adds ``tree_peak_kb`` / ``tree_pss_peak_kb`` (sampled peak RSS / PSS summed over the child and its
    descendants, 0 without psutil) and
    ``process_wall_s`` (wall time of the whole child, interpreter start-up and imports included).
    """
    cmd = [sys.executable, script, "--child", contender, "--params", json.dumps(params)]
    full_env = dict(os.environ)
    full_env.setdefault("PYTHONHASHSEED", "0")
    for key, value in (env or {}).items():  # a None value removes the variable
        if value is None:
            full_env.pop(key, None)
        else:
            full_env[key] = value
    wait_for_quiet_cpu()
    busy0 = _cpu_busy_seconds()
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=full_env)
    sampler = _TreeSampler(proc.pid)
    sampler.start()
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        sampler.stop()
        return {"error": f"timed out after {timeout:.0f}s"}
    sampler.stop()
    wall = time.perf_counter() - t0
    busy1 = _cpu_busy_seconds()
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    parent_cpu = (me1.ru_utime + me1.ru_stime) - (me0.ru_utime + me0.ru_stime)  # the memory sampler
    result_line = next((l for l in reversed(out.splitlines()) if l.startswith("RESULT ")), None)
    if proc.returncode != 0 or result_line is None:
        tail = (err or out).strip().splitlines()[-5:]
        return {"error": f"exit {proc.returncode}: " + " / ".join(tail)}
    result = json.loads(result_line[len("RESULT "):])
    result["tree_peak_kb"] = sampler.peak_kb
    result["tree_pss_peak_kb"] = sampler.peak_pss_kb
    result["process_wall_s"] = wall
    if busy0 is not None and busy1 is not None and "own_cpu_s" in result:
        # Everything the machine did meanwhile, minus the child's own CPU (its workers included).
        result["other_cores"] = max(0.0, (busy1 - busy0 - result["own_cpu_s"] - parent_cpu) / wall)
        OTHER_LOAD.append(result["other_cores"])
        print(f"[bench] child {contender}: {wall:.1f}s, other processes used {result['other_cores']:.2f} cores",
              file=sys.stderr, flush=True)
    return result


def child_main(contenders: Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]]) -> bool:
    """If this process was started as a child (``--child NAME``), run that contender and return True."""
    if "--child" not in sys.argv:
        return False
    name = sys.argv[sys.argv.index("--child") + 1]
    params = json.loads(sys.argv[sys.argv.index("--params") + 1])
    result = contenders[name](params)
    result["self_peak_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    result["children_peak_kb"] = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    result["own_cpu_s"] = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    print("RESULT " + json.dumps(result), flush=True)
    return True


def peak_kb(result: Mapping[str, Any]) -> int:
    """A child's memory peak: the larger of its own exact ``getrusage`` peak RSS and the sampled peak PSS
    of its process tree (which adds its worker processes but, being sampled, can miss a short peak)."""
    return max(result.get("tree_pss_peak_kb", 0), result.get("self_peak_kb", 0))


def common_args(parser: Any, *, reps: int) -> None:
    parser.add_argument("--reps", type=int, default=reps, help=f"repetitions, median reported (default {reps})")
    parser.add_argument("--quick", action="store_true",
                        help="smoke-test mode: a small slice, small vocabularies, one repetition")
    parser.add_argument("--max-load", type=float, default=None,
                        help="wait (up to --wait-timeout s) until the 1-minute load average is below this")
    parser.add_argument("--max-other-cpu", type=float, default=None,
                        help="before each child run, wait until other processes use fewer than this many cores "
                             "(measured over 3 s from /proc/stat)")
    parser.add_argument("--wait-timeout", type=float, default=3600.0)


def apply_quiet_args(args: Any) -> None:
    """Apply ``--max-load`` (now) and ``--max-other-cpu`` (before every child run)."""
    QUIET["max_other_cpu"] = args.max_other_cpu
    QUIET["timeout"] = args.wait_timeout
    wait_for_load(args.max_load, args.wait_timeout)
