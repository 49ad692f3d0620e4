"""The web app's message catalogues (app/i18n/<tag>.json) against the code that uses them.

No browser: reads the files. Fails when a catalogue lacks a key the code uses or has one no code
uses, when a key's {placeholders} differ between languages, when a plural lacks `other`, when the
lists of languages disagree (files, i18n.js, AppLanguages.swift), or when the JavaScript still
writes an English sentence of its own where a participant would see or hear it. Keys the server
uses (Swift string literals of the families it writes, such as "status.welcome") count as used.
"""
import glob
import json
import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PUBLIC = os.path.join(ROOT, "Sources", "MomentaryServer", "Public")
APP = os.path.join(PUBLIC, "app")
CATALOGUES = os.path.join(APP, "i18n")
SCRIPTS = sorted(glob.glob(os.path.join(APP, "js", "*.js"))) + [os.path.join(PUBLIC, "sw.js")]
INDEX = os.path.join(APP, "index.html")
SWIFT_LIST = os.path.join(ROOT, "Sources", "MomentaryCore", "Languages", "AppLanguages.swift")

PLURAL_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# t('key' …) with a literal key; a key built at run time would escape every check here.
T_CALL = re.compile(r"\bt\(\s*(['\"`])([^'\"`]*)\1")
T_DYNAMIC = re.compile(r"\bt\(\s*(?!['\"`][^'\"`]*['\"`]\s*[,)])")
HTML_KEY = re.compile(r'data-i18n(?:-content)?="([^"]+)"')
# The server writes some participant texts itself from the same catalogues (AppCatalogues.swift,
# FeedbackWords.swift): a Swift string literal naming a key of these families is a use of it.
SWIFT_SOURCES = [os.path.join(ROOT, "Sources", "MomentaryServer"), os.path.join(ROOT, "Sources", "MomentaryCore", "Feedback")]
SWIFT_KEY = re.compile(r'"((?:feedback|my_data_page|statistics|status|survey|title|my_data|page_error|air|api_error)\.[a-z0-9_.]+)"')


def read(path):
    with open(path, encoding="utf-8") as file:
        return file.read()


def catalogues():
    return {os.path.basename(path)[:-len(".json")]: json.loads(read(path))
            for path in sorted(glob.glob(os.path.join(CATALOGUES, "*.json")))}


def strip_comments(source):
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r"(?m)^\s*//.*$|\s//\s.*$", "", source)


def used_keys():
    keys = {}
    for path in SCRIPTS:
        for match in T_CALL.finditer(strip_comments(read(path))):
            keys.setdefault(match.group(2), set()).add(os.path.relpath(path, PUBLIC))
    for key in HTML_KEY.findall(read(INDEX)):
        keys.setdefault(key, set()).add("app/index.html")
    for folder in SWIFT_SOURCES:
        for path in glob.glob(os.path.join(folder, "**", "*.swift"), recursive=True):
            for key in SWIFT_KEY.findall(read(path)):
                keys.setdefault(key, set()).add(os.path.relpath(path, ROOT))
    # The <noscript> paragraphs: written out in every language, since no script can choose one.
    keys.setdefault("shell.noscript", set()).add("app/index.html <noscript>")
    return keys


def placeholders(value):
    forms = value.values() if isinstance(value, dict) else [value]
    return set().union(*(PLACEHOLDER.findall(form) for form in forms))


def test_the_lists_of_languages_agree():
    files = set(catalogues())
    script = re.search(r"SUPPORTED = \[([^\]]*)\]", read(os.path.join(APP, "js", "i18n.js")))
    assert script, "i18n.js has no SUPPORTED list"
    in_js = set(re.findall(r"'([^']+)'", script.group(1)))
    assert files == in_js, "catalogue files %s, i18n.js SUPPORTED %s" % (sorted(files), sorted(in_js))
    swift = re.search(r"supported = \[([^\]]*)\]", read(SWIFT_LIST))
    assert swift, "AppLanguages.swift has no `supported` list"
    in_swift = set(re.findall(r'"([^"]+)"', swift.group(1)))
    assert files == in_swift, "catalogue files %s, AppLanguages.swift %s" % (sorted(files), sorted(in_swift))
    assert "en" in files, "English is the fallback, so it must have a catalogue"


def test_every_key_the_code_uses_is_in_every_catalogue_and_no_other():
    used = used_keys()
    assert len(used) > 100, "found only %d keys: is the scan of t('…') still right?" % len(used)
    problems = []
    for tag, words in catalogues().items():
        for key in sorted(set(used) - set(words)):
            problems.append("%s.json lacks %r (used in %s)" % (tag, key, ", ".join(sorted(used[key]))))
        for key in sorted(set(words) - set(used)):
            problems.append("%s.json has %r, which no code uses" % (tag, key))
    assert not problems, "\n".join(problems)


def test_no_key_is_built_at_run_time():
    found = []
    for path in SCRIPTS:
        for number, line in enumerate(strip_comments(read(path)).splitlines(), 1):
            if T_DYNAMIC.search(line) and not re.search(r"\bt\(\s*(?:el\.dataset\.|key\b)", line):
                found.append("%s:%d: %s" % (os.path.relpath(path, PUBLIC), number, line.strip()))
    assert not found, "t() with a key the scan cannot see:\n" + "\n".join(found)


def test_no_module_hides_t_behind_a_local_name():
    """A local `t` (const t = …, t => …) would make t('…') inside it call the wrong thing."""
    found = []
    for path in SCRIPTS:
        source = strip_comments(read(path))
        if "import { t" not in source and "import {t" not in source:
            continue
        for number, line in enumerate(source.splitlines(), 1):
            if re.search(r"\b(?:const|let|var)\s+t\b|\(\s*t\s*\)\s*=>|\bt\s*=>|\(t,|, t\)\s*=>", line):
                found.append("%s:%d: %s" % (os.path.relpath(path, PUBLIC), number, line.strip()))
    assert not found, "a local t hides i18n's t():\n" + "\n".join(found)


def test_placeholders_and_plurals_agree_across_languages():
    all_words = catalogues()
    english = all_words["en"]
    problems = []
    for tag, words in all_words.items():
        for key, value in words.items():
            if isinstance(value, dict):
                if "other" not in value:
                    problems.append("%s.json %r: a plural without `other`" % (tag, key))
                unknown = set(value) - PLURAL_CATEGORIES
                if unknown:
                    problems.append("%s.json %r: %s are not plural categories" % (tag, key, sorted(unknown)))
                if not all(isinstance(form, str) and form.strip() for form in value.values()):
                    problems.append("%s.json %r: an empty plural form" % (tag, key))
            elif not isinstance(value, str) or not value.strip():
                problems.append("%s.json %r: neither text nor a plural" % (tag, key))
                continue
            if key not in english:
                continue
            # A plural's `other` says everything; a form such as Arabic's "one" may leave out {count}.
            mine = placeholders(value["other"] if isinstance(value, dict) else value)
            theirs = placeholders(english[key]["other"] if isinstance(english[key], dict) else english[key])
            if mine != theirs:
                problems.append("%s.json %r: placeholders %s, English has %s" % (tag, key, sorted(mine), sorted(theirs)))
            if not placeholders(value) <= theirs:
                problems.append("%s.json %r: placeholders %s beyond English's" % (tag, key, sorted(placeholders(value) - theirs)))
    assert not problems, "\n".join(problems)


def test_the_noscript_text_is_each_catalogues():
    html = read(INDEX)
    noscript = re.search(r"<noscript>(.*?)</noscript>", html, re.S)
    assert noscript, "index.html has no <noscript>"
    for tag, words in catalogues().items():
        assert '<p class="error" lang="%s"' % tag in noscript.group(1) and words["shell.noscript"] in noscript.group(1), (
            "the <noscript> lacks %s's shell.noscript" % tag)


# What a participant would see or hear, written with a literal: text or textContent (h() props
# and assignments), aria-label / aria-valuetext / alt / title, announce(), error.show(),
# new Error(), link()/heading() labels. A literal counts with two or more words of letters, or as
# one capitalised word ("Back", "Submit").
VISIBLE_LITERAL = re.compile(
    r"(?:\b(?:text|textContent|innerText|alt|title|placeholder)\s*[:=]\s*"
    r"|['\"]aria-(?:label|valuetext|description)['\"]\s*[:,]\s*"
    r"|\b(?:announce|show|general|heading|say|Error|link\([^,]+,)\s*\(?\s*)"
    r"(['\"`])((?:(?!\1).)*)\1")
WORDS = re.compile(r"[A-Za-z]{2,}[^A-Za-z]+[A-Za-z]{2,}|^\s*[A-Z][a-z]{2,}\W*$")


def english_literals(source):
    found = []
    for number, line in enumerate(strip_comments(source).splitlines(), 1):
        for match in VISIBLE_LITERAL.finditer(line):
            text = re.sub(r"\$\{[^}]*\}", " ", match.group(2))
            if WORDS.search(text):
                found.append((number, match.group(0)))
    return found


def test_no_english_sentence_is_left_in_the_javascript():
    found = []
    for path in SCRIPTS:
        for number, text in english_literals(read(path)):
            found.append("%s:%d: %s" % (os.path.relpath(path, PUBLIC), number, text))
    assert not found, "words a participant sees, not from a catalogue:\n" + "\n".join(found)


@pytest.mark.parametrize("line", [
    "h('p', { text: 'Please try again later.' })",
    "el.textContent = `You are offline. ${x}`;",
    "h('nav', { 'aria-label': 'More links' })",
    "announce('Thanks! Saved.');",
    "throw new Error('The server sent no charts.');",
    "errorEl.show('That picture could not be used');",
    "h('button', { type: 'button', text: 'Back', onclick: goBack })",
])
def test_the_english_check_catches_a_hard_coded_sentence(line):
    assert english_literals(line), "the check for English literals missed: " + line
