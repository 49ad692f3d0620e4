#!/usr/bin/env python3
"""Check a Momentary XLSX export with openpyxl, as a researcher's tools would read it.

usage: check_xlsx.py FILE [--rows SHEET=N ...]

Checks that the workbook opens; that it has the sheets Responses, Context, Environment, Beeps and
Codebook (a
sheet that outgrew Excel's row limit continues on "Responses (2)" and so on); that each sheet
starts with the expected header; that instants, UTC and local, are date cells; that the Context sheet has one
row per response found on the Responses sheets, and the Environment sheet only responses of the
Context sheet. With --rows, the data rows of a sheet (continuations included) must number N.
Exits 0 when all holds, 1 (with the reasons) otherwise.
"""
import argparse
import datetime
import re
import sys

import openpyxl

ANSWER_HEADER = [
    "study", "participant_id", "participant_label", "response_id", "survey", "survey_version", "beep_id", "origin",
    "volunteered", "timezone", "language", "scheduled_at_utc", "scheduled_at_local", "sent_at_utc", "sent_at_local",
    "started_at_utc", "started_at_local", "submitted_at_utc", "submitted_at_local", "delay_seconds",
    "question_position", "question_id", "question_type", "question_text", "answer", "answer_status",
]
CONTEXT_HEADER_START = ["study", "participant_id", "participant_label", "response_id"]
ENVIRONMENT_HEADER_START = ["participant_id", "participant_label", "response_id", "timezone", "submitted_at_utc"]
BEEPS_HEADER_START = ["study", "participant_id", "participant_label", "beep_id"]
CODEBOOK_HEADER_START = ["survey", "survey_kind", "survey_version", "question_position", "question_id"]
SHEETS = ["Responses", "Context", "Environment", "Beeps", "Codebook"]


def series(workbook, name):
    """The sheet called `name` and its continuations, in order."""
    pattern = re.compile(r"^%s \((\d+)\)$" % re.escape(name))
    continued = sorted(
        (int(match.group(1)), sheet) for sheet in workbook.sheetnames if (match := pattern.match(sheet))
    )
    return [workbook[name]] + [workbook[sheet] for _, sheet in continued]


def rows_of(sheets):
    """Header (of the first sheet) and all data rows as dictionaries."""
    header, records = None, []
    for sheet in sheets:
        rows = sheet.iter_rows(values_only=True)
        this_header = [cell for cell in next(rows, ())]
        while this_header and this_header[-1] is None:
            this_header.pop()
        if header is None:
            header = this_header
        elif this_header != header:
            raise ValueError("%s repeats a different header" % sheet.title)
        for row in rows:
            records.append(dict(zip(header, row)))
    return header or [], records


def check(path, expected_rows):
    problems = []
    workbook = openpyxl.load_workbook(path, read_only=True)
    missing = [name for name in SHEETS if name not in workbook.sheetnames]
    if missing:
        return ["missing sheet(s): %s (found %s)" % (", ".join(missing), workbook.sheetnames)]

    tables = {name: rows_of(series(workbook, name)) for name in SHEETS}
    answers_header, answers = tables["Responses"]
    context_header, contexts = tables["Context"]
    environment_header, environments = tables["Environment"]
    beeps_header, beeps = tables["Beeps"]
    codebook_header, _ = tables["Codebook"]

    if answers_header != ANSWER_HEADER:
        problems.append("Responses header is %s" % answers_header)
    if context_header[:len(CONTEXT_HEADER_START)] != CONTEXT_HEADER_START:
        problems.append("Context header starts %s" % context_header[:3])
    if environment_header[:len(ENVIRONMENT_HEADER_START)] != ENVIRONMENT_HEADER_START:
        problems.append("Environment header starts %s" % environment_header[:3])
    if beeps_header[:len(BEEPS_HEADER_START)] != BEEPS_HEADER_START:
        problems.append("Beeps header starts %s" % beeps_header[:3])
    if codebook_header[:len(CODEBOOK_HEADER_START)] != CODEBOOK_HEADER_START:
        problems.append("Codebook header starts %s" % codebook_header[:3])

    for name, records in (("Responses", answers), ("Context", contexts), ("Environment", environments)):
        for number, record in enumerate(records, start=2):
            for column in ("submitted_at_utc", "submitted_at_local"):
                if not isinstance(record.get(column), datetime.datetime):
                    problems.append("%s row %d: %s is %r, not a date cell" % (name, number, column, record.get(column)))
    for number, record in enumerate(beeps, start=2):
        if not isinstance(record.get("scheduled_at_local"), datetime.datetime):
            problems.append("Beeps row %d: scheduled_at_local is %r, not a date cell" % (number, record.get("scheduled_at_local")))

    answered = {record["response_id"] for record in answers}
    contexted = [record["response_id"] for record in contexts]
    if answers and set(contexted) != answered:
        problems.append("Context has %d responses, Responses %d" % (len(set(contexted)), len(answered)))
    if len(contexted) != len(set(contexted)):
        problems.append("Context repeats a response")
    strays = {record["response_id"] for record in environments} - set(contexted)
    if strays:
        problems.append("Environment has %d response(s) not on the Context sheet" % len(strays))

    counts = {"Responses": len(answers), "Context": len(contexts), "Environment": len(environments), "Beeps": len(beeps)}
    for name, expected in expected_rows.items():
        if counts.get(name) != expected:
            problems.append("%s has %s data rows, expected %d" % (name, counts.get(name), expected))
    if not problems:
        print("%s: ok (%s)" % (path, ", ".join("%s %d rows" % item for item in counts.items())))
    return problems


def main():
    parser = argparse.ArgumentParser(description="Check a Momentary XLSX export with openpyxl.")
    parser.add_argument("file")
    parser.add_argument("--rows", action="append", default=[], metavar="SHEET=N",
                        help="expected data rows of a sheet, continuations included")
    arguments = parser.parse_args()
    expected = {}
    for item in arguments.rows:
        name, _, count = item.rpartition("=")
        if not name or not count.isdigit():
            parser.error("--rows takes SHEET=N, e.g. Responses=120, not %r" % item)
        expected[name] = int(count)
    try:
        problems = check(arguments.file, expected)
    except Exception as error:  # any failure to read the workbook is a failed check
        problems = ["cannot read %s: %s" % (arguments.file, error)]
    for problem in problems:
        print("check_xlsx: %s" % problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
