"""A researcher adds a webhook on the website; a participant joins in the app, and the receiving
system gets a signed delivery, checked with the guide's own Python snippet; the page shows the try."""
import json
import os
import re
import subprocess
import sys
import tempfile

from selenium.webdriver.common.by import By

from harness import wait_until
from participant import DEMO_REGISTRATION
from test_website_accessibility import sign_in_as_new_developer

RECEIVER = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "webhook_receiver.py")
GUIDE = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "research-api.md")


def documented_check():
    """momentary_event_is_genuine from the Python block of the guide's Webhooks section."""
    with open(GUIDE) as file:
        section = file.read().split("## Webhooks", 1)[1]
    namespace = {}
    exec(re.search(r"```python\n(.*?)```", section, re.S).group(1), namespace)
    return namespace["momentary_event_is_genuine"]


def test_a_webhook_added_on_the_website_tells_another_system_of_a_participant_joining(fresh_app, chromium, server, screenshot, axe_check):
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "hooks@example.org", "Hook Maker")
    driver.get(server.origin + "/studies/demo")
    driver.find_element(By.LINK_TEXT, "Webhooks").click()
    wait_until(lambda: driver.current_url.endswith("/studies/demo/webhooks"), 10, "the webhooks page")

    # A plain-http address elsewhere is refused beside the form, nothing kept.
    driver.find_element(By.ID, "url").send_keys("http://lab.example.org/events")
    driver.find_element(By.CSS_SELECTOR, "input[value='participant.joined']").click()
    driver.find_element(By.XPATH, "//button[normalize-space()='Add webhook']").click()
    wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, ".problems"), 10, "the refusal")
    assert "https://" in driver.find_element(By.CSS_SELECTOR, ".problems").text
    axe_check(driver, "webhooks-refused")

    folder = tempfile.mkdtemp(prefix="momentary-webhooks-")
    # The secret is known only once the webhook is made, so the receiver checks it afterwards.
    receiver = subprocess.Popen([sys.executable, RECEIVER, "--dir", folder, "--secret", "unknown-yet"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        port = int(receiver.stdout.readline().split()[1])
        address = "http://127.0.0.1:%d/momentary-events" % port
        field = driver.find_element(By.ID, "url")
        field.clear()
        field.send_keys(address)
        driver.find_element(By.XPATH, "//button[normalize-space()='Add webhook']").click()
        wait_until(lambda: driver.find_elements(By.ID, "new-secret"), 10, "the new webhook's secret")
        secret = driver.find_element(By.ID, "new-secret").text
        assert secret.startswith("whsec_")
        screenshot("website-webhooks-added")
        axe_check(driver, "webhooks-added")

        chromium.clear_site_data()
        participant_id = fresh_app.join("demo", registration=DEMO_REGISTRATION, notifications=False)

        def joined():
            for name in sorted(os.listdir(folder)):
                if name.endswith(".json"):
                    with open(os.path.join(folder, name)) as file:
                        record = json.load(file)
                    if record["event"] == "participant.joined" and participant_id.lower() in record["body"]:
                        return record
            return None
        record = wait_until(joined, 30, "the receiver to be told of the participant joining")
        # Checked with the guide's own snippet (Python's hmac), keyed by the secret shown once.
        body = record["body"].encode()
        assert documented_check()(body, record["signature"], secret), "the signature does not hold"
        assert not documented_check()(body + b" ", record["signature"], secret), "a changed body still passed"
        payload = json.loads(body)
        assert payload["event"] == "participant.joined" and payload["study"] == "demo"
        assert payload["id"] == record["delivery"]
        assert payload["data"]["participant_id"] == participant_id.lower()

        # The receiver (not knowing the secret) answered 400: the page shows the failed try.
        sign_in_as_new_developer(chromium, server, "hooks2@example.org", "Hook Reader")
        driver.get(server.origin + "/studies/demo/webhooks")
        deliveries = driver.find_element(By.ID, "deliveries").text
        assert "participant.joined" in deliveries and "400" in deliveries, deliveries
        screenshot("website-webhooks-deliveries")
        axe_check(driver, "webhooks-deliveries")
    finally:
        receiver.stdin.close()
        receiver.terminate()
        receiver.wait(timeout=10)
