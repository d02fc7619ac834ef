#!/usr/bin/env python3
"""journeys.py — what a newcomer does, done exactly as a document says, in new directories.

A journey is a sequence of listings of one document marked with the same `journey=NAME` in the
HTML comment right before their fence (the listing annotation of scripts/docs/listings.py):

  <!-- listing: journey=shop file=Package.swift -->      the block is the file Package.swift of
                                                        the journey's folder, written as shown
  <!-- listing: journey=shop -->                        a `sh` block: each `$ COMMAND` line is run
  ```sh                                                 with bash in the journey's folder; the
  $ swift run Shop                                      lines after it, up to the next `$`, are its
  0 success                                             expected standard output, compared exactly
  ```                                                   (a line `…` stands for any lines; with no
                                                        line shown, the output is not compared)

More keys: `cwd=repo` runs the block in the repository under test instead of the journey's folder;
`setup="COMMANDS"` runs before the block (an edit the text describes, e.g. a planted mistake);
`status=N` is the exit status each command of the block must end with (default 0); `ci="COMMAND"`
on a block of bare command lines says that COMMAND is run by CI as a stage of its own (.ci/run must
run it) and the other lines are run here without an expected output; `skip="REASON"` leaves a
listing out (a manifest fragment, say), printing the reason.

How the newcomer's machine is made: a new HOME (so SwiftPM's caches start empty), the repository's
HEAD published as a bare git repository tagged with the version of include/errcore_version.h, and
git told (in that HOME's .gitconfig) to fetch the URL the document's Package.swift names from it:
the manifest is used as written. Each journey gets a folder of its own next to that HOME, named
after the journey (`dir=NAME` on its first listing sets another name); `/path/to/NAME` in an
expected output stands for that folder. Environment variables a block exports reach the next blocks
of its journey. Only standard output is compared; standard error is shown when a step fails.

  journeys.py README.md                 every journey of README.md
  journeys.py README.md --only shop     one journey
  journeys.py --self-test               a wrong step, a wrong shown output, a lost export and a wrong
                                        status must fail, in a made-up document and in the README
  --keep                                keep the temporary folders (their path is printed)

Exit status: 0 every journey held; 1 a step failed (its document and line are printed); 2 usage.
"""
import glob
import json
import os
import pwd
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import listings as checked  # noqa: E402  (the one reader of fences and annotations)

PACKAGE_URL = re.compile(r'\.package\(\s*url:\s*"([^"]+)"')


class Step:
    """A listing of a journey: where it is, its language, its text and its annotation."""

    def __init__(self, listing):
        self.doc, self.line, self.language = listing.doc, listing.line, listing.language
        self.body = "\n".join(listing.lines) + "\n"
        self.keys = listing.notes

    def where(self):
        return f"{self.doc}:{self.line}"


def document_steps(path):
    """The listings of a Markdown file, read by scripts/docs/listings.py."""
    root, doc = os.path.dirname(path), os.path.basename(path)
    found, problems = checked.read_document(root, doc)
    if problems:
        raise Failure("\n".join(str(problem) for problem in problems))
    return [Step(listing) for listing in found]


def version():
    text = open(os.path.join(ROOT, "include", "errcore_version.h"), encoding="utf-8").read()
    parts = [re.search(rf"#define ERRCORE_VERSION_{name}\s+(\d+)", text).group(1) for name in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


class Failure(Exception):
    pass


def commands_and_outputs(body):
    """(command, expected lines or None) for each `$ ` line of a shell block.

    A command line ending in `\\` goes on on the next line. The lines after a command, up to the
    next `$ `, are its expected output; a command followed by none has its output not shown, so it
    is not compared (as scripts/docs/listings.py's sessions do).
    """
    steps = []
    continued = False
    for line in body.rstrip("\n").split("\n"):
        if continued:
            steps[-1][0] += "\n" + line
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            steps.append([line[2:], []])
            continued = line.endswith("\\")
        elif steps:
            steps[-1][1].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            raise Failure(f"a line before the first `$ ` command: {line!r}")
    return [(command, expected or None) for command, expected in steps]


def matches(expected, actual):
    """Whether the actual lines are the expected ones, `…` standing for any run of lines."""
    if not expected:
        return not actual
    if expected[0].strip() in ("…", "..."):
        return any(matches(expected[1:], actual[start:]) for start in range(len(actual) + 1))
    return bool(actual) and expected[0].rstrip() == actual[0].rstrip() and matches(expected[1:], actual[1:])


def forget_fingerprints(urls):
    """Removes SwiftPM's recorded fingerprints of `urls`.

    SwiftPM keeps them under the account's home directory, not under HOME, and refuses a version
    whose commit differs from the one it first saw. On a new machine there are none; on a
    developer's machine an earlier journey recorded another HEAD as the same version. Only files
    that record these URLs alone (the document's placeholder URL, which nothing else fetches) go.
    """
    home = pwd.getpwuid(os.getuid()).pw_dir
    for path in glob.glob(os.path.join(home, ".swiftpm", "security", "fingerprints", "*.json")):
        try:
            record = json.load(open(path, encoding="utf-8"))
        except (OSError, ValueError):
            continue
        origins = set(re.findall(r'"origin"\s*:\s*"([^"]*)"', json.dumps(record)))
        if origins and origins <= set(urls):
            os.remove(path)


class Machine:
    """The newcomer's machine: a HOME, the published package, the journeys' folders."""

    def __init__(self, keep):
        self.base = tempfile.mkdtemp(prefix="swifterr-journeys-")
        self.keep = keep
        self.home = os.path.join(self.base, "home")
        os.makedirs(self.home)
        self.published = os.path.join(self.base, "SwiftErr.git")
        self.urls = set()

    def publish(self, urls):
        """HEAD as a bare repository tagged with the version, fetched for each of `urls`."""
        if not urls:
            return
        if subprocess.run(["git", "-C", ROOT, "diff", "--quiet", "HEAD"]).returncode != 0:
            print("journeys: note: the working tree has uncommitted changes; the journeys use HEAD")
        subprocess.run(["git", "clone", "--quiet", "--bare", ROOT, self.published], check=True)
        subprocess.run(["git", "-C", self.published, "tag", "-f", version(), "HEAD"], check=True,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(self.home, ".gitconfig"), "w", encoding="utf-8") as config:
            for url in sorted(urls):
                config.write(f'[url "file://{self.published}"]\n\tinsteadOf = {url}\n')
        forget_fingerprints(urls)

    def close(self):
        if self.keep:
            print(f"journeys: kept {self.base}")
        else:
            shutil.rmtree(self.base, ignore_errors=True)


def run_journey(name, steps, machine):
    folder_name = next((s.keys["dir"] for s in steps if "dir" in s.keys), name)
    folder = os.path.join(machine.base, folder_name)
    os.makedirs(folder, exist_ok=True)
    env_file = os.path.join(machine.base, f".{name}.env")
    environment = {
        "HOME": machine.home,
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "LANG": "C.UTF-8",
        "TERM": "dumb",
    }
    with open(env_file, "w", encoding="utf-8") as out:
        out.write("")
    for step in steps:
        if "skip" in step.keys and not step.keys["skip"].startswith("done as written by the journey"):
            print(f"journeys: {name}: {step.where()}: skipped ({step.keys['skip']})")
            continue
        if "file" in step.keys:
            target = os.path.join(folder, step.keys["file"])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "w", encoding="utf-8") as out:
                out.write(step.body)
            print(f"journeys: {name}: {step.where()}: wrote {step.keys['file']}")
            continue
        if step.language not in ("sh", "console", "bash"):
            raise Failure(f"{step.where()}: a {step.language or 'unlabelled'} block in journey {name} is neither a file nor commands")
        cwd = ROOT if step.keys.get("cwd") == "repo" else folder
        status_wanted = int(step.keys.get("status", "0"))
        if "ci" in step.keys:
            ci = open(os.path.join(ROOT, ".ci", "run"), encoding="utf-8").read()
            # A stage's command stands on a line of its own in .ci/run, quoted or not.
            if not re.search(rf"^\s*\"?{re.escape(step.keys['ci'])}\"?\s*$", ci, re.M):
                raise Failure(f"{step.where()}: .ci/run does not run `{step.keys['ci']}`, which the document gives as CI's")
            bare = [l.split("#")[0].strip() for l in step.body.split("\n")]
            plan = [(command, None) for command in bare if command and command != step.keys["ci"]]
        else:
            plan = commands_and_outputs(step.body)
        if "setup" in step.keys:
            plan = [(step.keys["setup"], None, 0)] + [(c, e, status_wanted) for c, e in plan]
        else:
            plan = [(c, e, status_wanted) for c, e in plan]
        for command, expected, wanted in plan:
            started = time.time()
            script = f"set -o pipefail\nsource {shlex.quote(env_file)}\ncd {shlex.quote(cwd)}\n{command}\nstatus=$?\nexport -p > {shlex.quote(env_file)}\nexit $status\n"
            completed = subprocess.run(["bash", "-c", script], env=environment, capture_output=True, text=True)
            seconds = time.time() - started
            actual = completed.stdout.rstrip("\n").split("\n") if completed.stdout.strip() else []
            actual = [line.replace(folder, f"/path/to/{folder_name}") for line in actual]
            shown = f"$ {command}"
            if completed.returncode != wanted:
                raise Failure(
                    f"{step.where()}: journey {name}: `{command}` exited {completed.returncode}, the document expects {wanted}\n"
                    f"--- standard output\n{completed.stdout}--- standard error (last 40 lines)\n"
                    + "\n".join(completed.stderr.rstrip("\n").split("\n")[-40:]))
            if expected is not None and not matches([l for l in expected], actual):
                raise Failure(
                    f"{step.where()}: journey {name}: `{command}` printed what the document does not show\n"
                    f"--- the document\n" + "\n".join(expected) + "\n--- printed\n" + "\n".join(actual)
                    + f"\n--- standard error (last 20 lines)\n" + "\n".join(completed.stderr.rstrip("\n").split("\n")[-20:]))
            print(f"journeys: {name}: {step.where()}: {shown} ({seconds:.0f} s)")


def run(documents, only, keep):
    journeys = {}
    for document in documents:
        for listing in document_steps(document):
            name = listing.keys.get("journey")
            if name and (only is None or name == only):
                journeys.setdefault(name, []).append(listing)
    if not journeys:
        print("journeys: no journey found" + (f" named {only}" if only else ""), file=sys.stderr)
        return 2
    urls = set()
    for steps in journeys.values():
        for step in steps:
            if step.keys.get("file") == "Package.swift":
                urls.update(url for url in PACKAGE_URL.findall(step.body) if "SwiftErr" in url)
    machine = Machine(keep)
    try:
        machine.publish(urls)
        for name, steps in journeys.items():
            started = time.time()
            run_journey(name, steps, machine)
            print(f"journeys: {name}: held ({time.time() - started:.0f} s)")
    except Failure as failure:
        print(f"journeys: FAIL: {failure}", file=sys.stderr)
        return 1
    finally:
        machine.close()
    return 0


def self_test():
    """A wrong step and a wrong shown output, planted in a copy, must each fail the journey."""
    document = (
        "<!-- listing: journey=t -->\n```sh\n$ echo hello\nhello\n$ printf 'a\\nb\\nc\\n'\na\n…\nc\n```\n"
        "<!-- listing: journey=t file=x.txt -->\n```text\nfile body\n```\n"
        "<!-- listing: journey=t -->\n```sh\n$ cat x.txt\nfile body\n$ export GREETING=hi\n```\n"
        "<!-- listing: journey=t status=3 -->\n```sh\n$ echo $GREETING; exit 3\nhi\n```\n")
    plants = {
        "a wrong step": document.replace("$ cat x.txt", "$ cat y.txt"),
        "a wrong shown output": document.replace("hello\n$ printf", "hullo\n$ printf"),
        "a lost export": document.replace("$ export GREETING=hi", "$ GREETING=hi"),
        "a wrong status": document.replace("status=3", "status=0"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        good = os.path.join(scratch, "good.md")
        with open(good, "w", encoding="utf-8") as out:
            out.write(document)
        if run([good], None, False) != 0:
            print("journeys: self-test: FAIL: the unplanted document does not hold", file=sys.stderr)
            failures += 1
        for what, text in plants.items():
            planted = os.path.join(scratch, "planted.md")
            with open(planted, "w", encoding="utf-8") as out:
                out.write(text)
            if run([planted], None, False) != 1:
                print(f"journeys: self-test: FAIL: {what} was not caught", file=sys.stderr)
                failures += 1
            else:
                print(f"journeys: self-test: {what} fails the journey, as it must")
        # The README itself, with a wrong step and a wrong shown output planted in its errcat
        # journey (cheap once errcat's release build exists: run the README's journeys first).
        readme = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
        readme_plants = {
            "a wrong step in the README": ("$ swift run -c release errcat explain", "$ swift run -c release errcat explian"),
            "a wrong shown output in the README": ("11219999: module studyGroup, unrecognised", "11219999: module studyGroup"),
        }
        for what, (good_text, bad_text) in readme_plants.items():
            if good_text not in readme:
                print(f"journeys: self-test: FAIL: the README no longer has {good_text!r} to plant {what} in",
                      file=sys.stderr)
                failures += 1
                continue
            folder = os.path.join(scratch, "readme")
            os.makedirs(folder, exist_ok=True)
            planted = os.path.join(folder, "README.md")
            with open(planted, "w", encoding="utf-8") as out:
                out.write(readme.replace(good_text, bad_text, 1))
            if run([planted], "errcat", False) != 1:
                print(f"journeys: self-test: FAIL: {what} was not caught", file=sys.stderr)
                failures += 1
            else:
                print(f"journeys: self-test: {what} fails the journey, as it must")
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    only, keep, documents = None, False, []
    arguments = iter(argv[1:])
    for argument in arguments:
        if argument == "--only":
            only = next(arguments, None)
        elif argument == "--keep":
            keep = True
        elif argument.startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            documents.append(os.path.abspath(argument))
    if not documents:
        print(__doc__, file=sys.stderr)
        return 2
    return run(documents, only, keep)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
