"""Another system beeps a participant through the research API: a token made on the website with
"May beep participants" ticked, a call retried with the same Idempotency-Key, and one push
reaching the participant's browser through the local Web Push service."""
import secrets
import time

import requests
from selenium.webdriver.common.by import By

from harness import wait_until
from participant import DEMO_REGISTRATION

EMAIL = "trigger@example.org"


def make_trigger_token(chromium, server, axe_check):
    driver = chromium.driver
    password = secrets.token_urlsafe(18)
    server.cli("researchers", "create", "--email", EMAIL, "--role", "developer", "--name", "Lab systems", "--password=" + password)
    chromium.clear_site_data()
    driver.get(server.origin + "/signin")
    driver.find_element(By.ID, "email").send_keys(EMAIL)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
    wait_until(lambda: driver.current_url.endswith("/studies"), 15, "signing in")
    driver.get(server.origin + "/account/tokens")
    driver.find_element(By.ID, "name").send_keys("EEG lab")
    driver.find_element(By.CSS_SELECTOR, "input[name='triggersBeeps']").click()
    driver.find_element(By.XPATH, "//main//form//button[normalize-space()='Create token']").click()
    wait_until(lambda: driver.find_elements(By.ID, "new-token"), 10, "the new token")
    assert "may beep participants" in driver.page_source
    axe_check(driver, "access-tokens-trigger")
    return driver.find_element(By.ID, "new-token").text


def test_a_retried_call_from_another_system_beeps_the_participant_once(fresh_app, chromium, server, push_service, axe_check):
    token = make_trigger_token(chromium, server, axe_check)

    chromium.clear_site_data()
    subscription = push_service.subscribe(server.web_push_key())
    chromium.install_push_seam(subscription)
    participant_id = fresh_app.join("demo", registration=DEMO_REGISTRATION, notifications=True)
    label = server.rows("participants", id=participant_id)[0]["label"]

    url = "%s/api/v1/research/studies/demo/participants/%s/beeps" % (server.origin, label)
    headers = {"Authorization": "Bearer " + token, "Idempotency-Key": "eeg-" + secrets.token_hex(8)}
    body = {"respect_hours": False, "answer_window_minutes": 30}
    first = requests.post(url, json=body, headers=headers, timeout=30)
    assert first.status_code == 201, first.text
    beep = first.json()
    assert beep["origin"] == "api" and beep["status"] == "sent", beep
    # The caller never saw the answer (a timeout, say) and sends the same call again.
    retried = requests.post(url, json=body, headers=headers, timeout=30)
    assert retried.status_code == 200, retried.text
    assert retried.json()["beep_id"] == beep["beep_id"] and retried.json()["repeated"] is True

    payload = push_service.wait_for_payload(subscription["id"], beep["beep_id"])
    assert payload["beep_id"].lower() == beep["beep_id"].lower()
    time.sleep(1)  # a second push, were there one, would have reached the service by now
    carrying = [m for m in push_service.messages(subscription["id"]) if beep["beep_id"].lower() in m["payload"].lower()]
    assert len(carrying) == 1, "the retried call was pushed again: %d pushes" % len(carrying)
    assert len(server.rows("beeps", participant_id=participant_id, origin="api")) == 1

    # A token without the tick may not beep, whatever its researcher's role.
    plain = server.cli("tokens", "create", "--researcher", EMAIL, "--name", "downloads").stdout.strip().splitlines()[-1]
    refused = requests.post(url, json=body, headers={"Authorization": "Bearer " + plain}, timeout=30)
    assert refused.status_code == 403 and "--trigger-beeps" in refused.json()["error"]["message"]
