"""A researcher downloads every export of a study through the browser and opens each as their tools would.

The study has one response (steps.ANSWERS) and one proximity batch. The workbook comes through
the export form, everything else through the page's quick links; then the long CSV is read with
Python's csv (values, statuses, UTC and local times), the wide, beeps and codebook CSVs with
pandas, the workbook with openpyxl (scripts/check_xlsx.py), the JSON with json, the map with
fastkml, the calendar with icalendar and the whole-study ZIP with zipfile. Last, the participant's
passive streams through the stream form: one stream as a CSV, two as a ZIP.
"""
import csv
import datetime
import io
import json
import os
import re
import sys
import urllib.parse
import zipfile
import zoneinfo

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

import harness
import website_study as steps
from website_study import ANSWERS, PROXIMITY_CSV, SURVEY, SURVEY_NAME

sys.path.insert(0, os.path.join(harness.REPOSITORY, "scripts"))
import check_xlsx  # noqa: E402  (the workbook check, also a command of its own)

# Export format (the form's radio value) → quick-link id and downloaded file name.
EXPORTS = {
    "long": ("export-csv", "%s-answers.csv"),
    # One wide link per survey; `mark_wide_link` gives the study's survey's this id.
    "wide": ("export-wide", "%s-responses-wide-" + "-".join(re.findall(r"[a-z0-9]+", SURVEY_NAME.lower())) + ".csv"),
    "beeps": ("export-beeps", "%s-beeps.csv"),
    "messages": ("export-messages", "%s-messages.csv"),
    "codebook": ("export-codebook", "%s-codebook.csv"),
    "context": ("export-context-csv", "%s-context.csv"),
    "xlsx": ("export-xlsx", "%s-responses.xlsx"),
    "json": ("export-json", "%s-responses.json"),
    "kmz": ("export-kmz", "%s-responses.kmz"),
    "ics": ("export-ics", "%s-responses.ics"),
    "archive": ("export-archive", "%s-study.zip"),
}

MESSAGE = "Thank you for your answers, and remember: no answer is wrong."

# How the answers CSV shows each question of steps.ANSWERS: (answer cell, answer_status). The
# checkbox answer, sent out of option order, comes back in option order.
EXPECTED_CELLS = {
    "intro": ("", "NOT_PRESENTED"),
    "happy": ("72", "answered"),
    "where": ("work", "answered"),
    "with_whom": ("alone;friends", "answered"),
    "outdoors": ("false", "answered"),
    "note": (ANSWERS["note"], "answered"),
    "coffees": ("", "NO_ANSWER_SELECTED"),
}


@pytest.fixture(scope="module")
def study(website, server):
    """An invitation-only study with SURVEY, invitation codes, and one participant's response and proximity batch."""
    steps.sign_in(website)
    made = steps.create_study(website, steps.new_slug("exports"))
    steps.add_survey(website, made)
    steps.save_survey(website, made)
    steps.create_invitees(website, made)
    steps.respond_through_api(server, made)
    # A message to the participant, written on the website, for the messages table.
    website.open("/studies/%s/messages" % made.slug, "Messages")
    website.fill("#participant", made.participant_label)
    for box in website.driver.find_elements(By.CSS_SELECTOR, "#compose textarea"):
        box.send_keys(MESSAGE)
    website.submit("#compose")
    website.expect_page("Messages")
    return made


def open_export_page(website, study):
    website.open("/studies/%s/export" % study.slug, "Export data")
    mark_wide_link(website, study)


def mark_wide_link(website, study):
    """The wide table is one survey's: gives the study's survey's wide link the id `export-wide`."""
    links = website.driver.find_elements(By.CSS_SELECTOR, "a.export-wide")
    mine = [link for link in links if study.survey_name in link.text]
    assert len(mine) == 1, "the export page has no wide CSV link for the survey “%s” (%s)" % (
        study.survey_name, [link.text for link in links])
    website.driver.execute_script("arguments[0].id = 'export-wide'", mine[0])


def test_export_page_offers_every_format_with_its_quick_link(website, study):
    # The responses page links to the export page.
    website.open("/studies/%s/responses" % study.slug, "Responses")
    website.follow("Export these responses", "Export data")
    assert website.path() == "/studies/%s/export" % study.slug, "the export link led to %s" % website.driver.current_url
    formats = [radio.get_attribute("value") for radio in
               website.driver.find_elements(By.CSS_SELECTOR, "#export-form input[type=radio][name=format]")]
    assert sorted(formats) == sorted(EXPORTS), "the export form offers the formats %s" % formats
    mark_wide_link(website, study)
    download = "/studies/%s/export/download?format=" % study.slug
    for format_name, (link, _) in EXPORTS.items():
        query = "wide&survey=" + urllib.parse.quote(study.survey_name) if format_name == "wide" else format_name
        href = website.field("#" + link).get_attribute("href")
        assert href == website.url(download + query), "the quick link #%s points to %s" % (link, href)


@pytest.fixture(scope="module")
def downloads(website, study):
    """Every export downloaded by the browser: format → file path. The workbook through the form."""
    open_export_page(website, study)
    paths = {name: os.path.join(website.downloads, file_name % study.slug) for name, (_, file_name) in EXPORTS.items()}
    for path in paths.values():
        website.forget_download(path)
    # The workbook through the form: choose the format, press Download.
    website.field("#export-form input[name=format][value=xlsx]").click()
    website.field("#export-form button[type=submit]").click()
    website.wait_for_download(paths["xlsx"])
    # Everything else through the quick links.
    for format_name, (link, _) in EXPORTS.items():
        if format_name != "xlsx":
            website.field("#" + link).click()
            website.wait_for_download(paths[format_name])
    return paths


def test_workbook_opens_in_openpyxl_with_the_response(downloads):
    # One response (the study has no registration survey) of the survey's questions.
    try:
        problems = check_xlsx.check(downloads["xlsx"], {"Responses": len(SURVEY["content"]), "Context": 1})
    except Exception as error:  # an unreadable workbook is a failed check, as in check_xlsx's main
        problems = ["cannot read %s: %s" % (downloads["xlsx"], error)]
    assert not problems, "the workbook fails check_xlsx: %s" % "; ".join(problems)


@pytest.mark.parametrize("format_name", ["long", "wide", "beeps", "context", "messages"])
def test_every_time_column_parses_in_pandas_without_a_format(downloads, format_name):
    import pandas
    path = downloads[format_name]
    table = pandas.read_csv(path, dtype=str, keep_default_na=False)
    for column in [name for name in table.columns if name.endswith("_utc") or name.endswith("_local")]:
        values = table[column][table[column] != ""]
        try:
            parsed = pandas.to_datetime(values)
        except (ValueError, TypeError) as error:
            raise AssertionError("%s: pandas cannot read %s without a format: %s" % (os.path.basename(path), column, error))
        assert len(parsed) == len(values), "%s: %s lost values" % (os.path.basename(path), column)


def local_text(study, utc_text):
    """The participant's wall-clock time of a UTC instant, as the exports write it (milliseconds always)."""
    instant = datetime.datetime.strptime(utc_text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=datetime.timezone.utc)
    return instant.astimezone(zoneinfo.ZoneInfo(study.time_zone)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3]


def test_long_csv_has_a_row_per_question_with_its_answer_and_times(downloads, study):
    with open(downloads["long"], newline="", encoding="utf-8") as file:
        text = file.read()
    assert not text.startswith("\ufeff"), "the CSV starts with a byte-order mark"
    header = check_xlsx.ANSWER_HEADER
    rows = list(csv.reader(io.StringIO(text)))
    assert rows and rows[0] == header, "the CSV header is %s" % (rows[0] if rows else "(empty file)")
    records = [dict(zip(header, row)) for row in rows[1:]]
    widths = {len(row) for row in rows[1:]}
    assert widths <= {len(header)}, "CSV rows have %s fields, the header %d" % (sorted(widths), len(header))
    assert len(records) == len(SURVEY["content"]), \
        "the CSV has %d answer rows, expected %d" % (len(records), len(SURVEY["content"]))
    mine = [record for record in records if record["response_id"].lower() == study.response_id]
    assert len(mine) == len(SURVEY["content"]), \
        "the CSV has %d rows for response %s, the survey %d questions" % (len(mine), study.response_id, len(SURVEY["content"]))
    for position, (question, record) in enumerate(zip(SURVEY["content"], mine), start=1):
        question_id = question["question_id"]
        where = "CSV row for %s" % question_id
        assert record["question_id"] == question_id, "CSV row %d is for %s, expected %s" % (position, record["question_id"], question_id)
        assert record["question_position"] == str(position), "%s: question_position %s" % (where, record["question_position"])
        assert record["question_type"] == question["question_type"], "%s: question_type %s" % (where, record["question_type"])
        assert record["question_text"] == question["question_text"], "%s: question_text %r" % (where, record["question_text"])
        assert record["study"] == study.slug, "%s: study %s" % (where, record["study"])
        assert record["survey"] == study.survey_name, "%s: survey %s" % (where, record["survey"])
        assert record["survey_version"] == str(study.survey_version), "%s: survey_version %s" % (where, record["survey_version"])
        cell, status = EXPECTED_CELLS[question_id]
        assert (record["answer"], record["answer_status"]) == (cell, status), \
            "%s: answer %r with status %s, expected %r with %s" % (where, record["answer"], record["answer_status"], cell, status)
        for instant in ("started_at", "submitted_at"):
            utc = record[instant + "_utc"]
            assert utc.endswith("Z"), "%s: %s_utc is %r, not a UTC instant" % (where, instant, utc)
            assert record[instant + "_local"] == local_text(study, utc), "%s: %s_local is %r for %s in %s" % (
                where, instant, record[instant + "_local"], utc, study.time_zone)
        assert record["timezone"] == study.time_zone, "%s: timezone %s" % (where, record["timezone"])
        assert record["participant_label"] == study.participant_label, "%s: participant_label %r" % (where, record["participant_label"])


def test_wide_csv_has_one_row_with_a_column_per_answer(downloads, study):
    import pandas
    path = downloads["wide"]
    table = pandas.read_csv(path, dtype=str, keep_default_na=False)
    assert len(table) == 1, "the wide CSV has %d rows, expected one response" % len(table)
    row = table.iloc[0]
    assert row["response_id"] == study.response_id, "the wide CSV's response is %s" % row["response_id"]
    assert row["participant_label"] == study.participant_label, \
        "the wide CSV's participant_label is %r, expected %r" % (row["participant_label"], study.participant_label)
    assert row["happy"] == "72" and row["happy_status"] == "answered", "wide happy: %r %r" % (row["happy"], row["happy_status"])
    options = {value: row["with_whom_" + value] for value in ("alone", "friends", "family")}
    assert options == {"alone": "1", "friends": "1", "family": "0"}, "wide with_whom columns: %s" % options
    assert row["coffees"] == "" and row["coffees_status"] == "NO_ANSWER_SELECTED", "wide coffees: %r" % row["coffees"]
    assert "intro" not in table.columns, "the wide CSV has a column for the information screen"
    assert row["submitted_at_local"] == local_text(study, row["submitted_at_utc"]), "wide submitted_at_local %s for %s in %s" % (
        row["submitted_at_local"], row["submitted_at_utc"], study.time_zone)
    parsed = pandas.read_csv(path, parse_dates=["submitted_at_utc", "submitted_at_local"])
    assert str(parsed["submitted_at_local"].dtype).startswith("datetime64"), \
        "pandas reads submitted_at_local as %s, not dates" % parsed["submitted_at_local"].dtype


def test_beeps_csv_names_only_the_participant_with_local_times(downloads, study):
    import pandas
    table = pandas.read_csv(downloads["beeps"], dtype=str, keep_default_na=False)
    for column in ("participant_label", "beep_id", "response_id", "timezone", "scheduled_at_utc",
                   "scheduled_at_local", "channel", "status", "delay_seconds"):
        assert column in table.columns, "the beeps CSV has no %s column (%s)" % (column, list(table.columns))
    # The study beeps at random; whatever has been planned for the participant is theirs.
    assert set(table["participant_label"]) <= {study.participant_label}, \
        "the beeps CSV names participants %s" % set(table["participant_label"])
    for _, row in table.iterrows():
        assert row["scheduled_at_local"] == local_text(study, row["scheduled_at_utc"]), \
            "beep scheduled_at_local %s for %s" % (row["scheduled_at_local"], row["scheduled_at_utc"])


def test_messages_csv_has_the_message_with_local_times(downloads, study):
    import pandas
    table = pandas.read_csv(downloads["messages"], dtype=str, keep_default_na=False)
    assert list(table["text"]) == [MESSAGE], "the messages CSV holds %s" % list(table["text"])
    row = table.iloc[0]
    assert row["participant_label"] == study.participant_label and row["from"] == "researchers"
    assert row["sent_at_local"] == local_text(study, row["sent_at_utc"]), "sent_at_local %s for %s" % (row["sent_at_local"], row["sent_at_utc"])


def test_codebook_has_a_row_per_question_and_option(downloads, study):
    import pandas
    table = pandas.read_csv(downloads["codebook"], dtype=str, keep_default_na=False)
    current = table[table["survey_version"] == str(study.survey_version)]
    expected = sum(max(1, len(question.get("answers", []))) for question in SURVEY["content"])
    assert len(current) == expected, "the codebook has %d rows for version %s, expected %d" % (
        len(current), study.survey_version, expected)
    family = current[(current["question_id"] == "with_whom") & (current["option_value"] == "family")]
    assert len(family) == 1 and family.iloc[0]["option_label"] == "Family", \
        "the codebook's with_whom/family row: %s" % family.to_dict("records")
    happy = current[current["question_id"] == "happy"].iloc[0]
    assert (happy["min"], happy["max"], happy["min_label"]) == ("0", "100", "Not at all"), \
        "the codebook's happy scale: %s" % happy.to_dict()


def json_responses(downloads):
    with open(downloads["json"], encoding="utf-8") as file:
        return json.load(file)


def test_json_export_holds_the_response(downloads, study):
    responses = json_responses(downloads)
    assert [item["response_id"] for item in responses] == [study.response_id], \
        "the JSON export holds %s" % [item.get("response_id") for item in responses]
    assert responses[0]["timezone"] == study.time_zone, "the JSON export's timezone is %s" % responses[0]["timezone"]


def test_map_opens_in_fastkml_and_calendar_in_icalendar(downloads, study):
    """As Google Earth and calendar apps would open them."""
    import icalendar
    from fastkml import kml
    context = json_responses(downloads)[0]["context"]
    located = bool(context and context["latitude"] is not None)
    with zipfile.ZipFile(downloads["kmz"]) as archive:
        document = kml.KML.from_string(archive.read("doc.kml"))
    placemarks = list(document.features[0].features)
    assert len(placemarks) == (1 if located else 0), "the map has %d placemarks" % len(placemarks)
    if placemarks:
        assert placemarks[0].name.startswith(study.participant_label), "the placemark is named %r" % placemarks[0].name
    with open(downloads["ics"], "rb") as file:
        events = icalendar.Calendar.from_ical(file.read()).walk("VEVENT")
    assert len(events) == 1 and str(events[0]["UID"]).startswith(study.response_id), \
        "the calendar holds %s" % [str(event.get("UID")) for event in events]


def test_study_archive_holds_every_export_and_a_readme(downloads, study):
    with zipfile.ZipFile(downloads["archive"]) as archive:
        names = set(archive.namelist())
    wanted = {name % study.slug for format_name, (_, name) in EXPORTS.items() if format_name != "archive"}
    assert wanted | {"README.txt"} <= names, "the study archive lacks %s" % sorted(wanted | {"README.txt"} - names)


def test_stream_form_gives_one_stream_as_csv_and_two_as_a_zip(website, study):
    open_export_page(website, study)
    single = os.path.join(website.downloads, "%s-%s-proximity.csv" % (study.slug, study.participant_label))
    archive_path = os.path.join(website.downloads, "%s-streams.zip" % study.slug)
    for path in (single, archive_path):
        website.forget_download(path)
    participants = Select(website.field("#streams-form select[name='participant[]']"))
    choice = next((option for option in participants.options if option.text.startswith(study.participant_label)), None)
    assert choice is not None, "the stream form does not offer participant %s" % study.participant_label
    participants.select_by_value(choice.get_attribute("value"))
    website.field("#streams-form input[name='stream[]'][value=proximity]").click()
    website.field("#streams-form button[type=submit]").click()
    website.wait_for_download(single)
    with open(single, encoding="utf-8", newline="") as file:
        rows = list(csv.reader(file))
    expected = list(csv.reader(io.StringIO(PROXIMITY_CSV)))
    # The batch was sent twice; it is stored once, its rows sorted.
    assert rows == [expected[0]] + sorted(expected[1:]), "the proximity CSV holds %s" % rows

    website.field("#streams-form input[name='stream[]'][value=reachability]").click()
    website.field("#streams-form button[type=submit]").click()
    website.wait_for_download(archive_path)
    with zipfile.ZipFile(archive_path) as archive:
        entries = {name: archive.read(name).decode("utf-8") for name in archive.namelist()}
    label = study.participant_label
    assert sorted(entries) == ["%s/proximity.csv" % label, "%s/reachability.csv" % label], \
        "the streams ZIP holds %s" % sorted(entries)
    assert entries["%s/proximity.csv" % label] == "\n".join(",".join(row) for row in rows) + "\n", \
        "the ZIP's proximity.csv differs from the single download"
    assert entries["%s/reachability.csv" % label] == "timestamp,event\n", \
        "the ZIP's reachability.csv is %r, expected the header alone" % entries["%s/reachability.csv" % label]
