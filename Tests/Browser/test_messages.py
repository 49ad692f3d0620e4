"""A researcher writes to a participant on the website; the participant's phone gets the message
through the local Web Push service, opens the app's inbox from the notification (which marks it
read), and replies; the researcher sees the reply and the read time on the participant's
conversation. The inbox and a reply in WebKit too. Every page and screen passes axe-core."""
import json

from selenium.webdriver.common.by import By

from harness import wait_until
from participant import DEMO_REGISTRATION

TEXT = "Your phone has not uploaded for two days. Is everything all right?"
REPLY = "Sorry, I was travelling. All fine now!"


def sign_in(website):
    driver = website.driver
    if "/signin" not in driver.current_url and driver.find_elements(By.CSS_SELECTOR, "header form"):
        return  # signed in by an earlier test of this file
    driver.get(website.url("/signin"))
    website.fill("#email", website.email)
    website.fill("#password", website.password)
    website.submit("main form")
    website.expect_page("Studies")


def allow_replies(website):
    website.open("/studies/demo/settings", "")
    box = website.field("input[name='messageRepliesAllowed']")
    if not box.is_selected():
        box.click()
    website.submit("main form")
    website.open("/studies/demo/settings", "")
    assert website.field("input[name='messageRepliesAllowed']").is_selected(), "the setting was not kept"


def write(website, label, text, axe_check, screen):
    website.open("/studies/demo/messages", "Messages")
    website.fill("#participant", label)
    for box in website.driver.find_elements(By.CSS_SELECTOR, "#compose textarea"):
        box.clear()
        box.send_keys(text)
    axe_check(website.driver, screen)
    website.submit("#compose")
    website.expect_page("Messages")
    notice = " ".join(website.texts(".notice"))
    assert "Sent to 1 participant." in notice, notice


def message_payload(push_service, subscription, timeout=15):
    def find():
        for message in push_service.messages(subscription["id"]):
            payload = json.loads(message["payload"])
            if payload.get("kind") == "message":
                return payload
        return None
    return wait_until(find, timeout, "the push service to receive the message")


def test_a_message_reaches_the_phone_is_read_and_answered(fresh_app, chromium, server, push_service, website, screenshot, axe_check):
    sign_in(website)
    allow_replies(website)

    chromium.clear_site_data()
    subscription = push_service.subscribe(server.web_push_key())
    chromium.install_push_seam(subscription)
    participant_id = fresh_app.join("demo", registration=DEMO_REGISTRATION, notifications=True)
    label = server.rows("participants", id=participant_id)[0]["label"]

    write(website, label, TEXT, axe_check, "website-messages")
    payload = message_payload(push_service, subscription)
    assert payload["alert"] == TEXT and "beep_id" not in payload, payload
    stored = server.rows("messages", participant_id=participant_id)
    assert [row["text"] for row in stored] == [TEXT] and stored[0]["push_state"] == "sent"
    assert stored[0]["id"].lower() == payload["message_id"].lower()

    # The phone shows it; home counts it as new.
    chromium.deliver_push(payload)
    shown = wait_until(lambda: [n for n in chromium.notifications() if n.get("tag") == "message-" + payload["message_id"]], 15,
                       "the message's notification")
    assert shown[0]["body"] == TEXT and shown[0]["data"]["url"] == "/app/messages?via=notification"
    fresh_app.open("/app")
    wait_until(lambda: "1 new" in fresh_app.text("#messages-link"), 15, "home to count the new message")

    # A tap on the notification opens the inbox; shown is read.
    fresh_app.open(shown[0]["data"]["url"])
    fresh_app.wait_visible("#messages .from-researchers")
    assert TEXT in fresh_app.text("#messages")
    wait_until(lambda: server.rows("messages", participant_id=participant_id)[0]["read_at"], 15, "the message to be marked read")
    axe_check(chromium.driver, "messages")
    screenshot("messages-inbox")

    fresh_app.type("#reply-text", REPLY)
    fresh_app.click("#reply-send")
    wait_until(lambda: REPLY in fresh_app.text("#messages"), 15, "the reply in the inbox")
    replies = [row for row in server.rows("messages", participant_id=participant_id) if row["from_participant"]]
    assert [row["text"] for row in replies] == [REPLY] and replies[0]["in_reply_to"].lower() == payload["message_id"].lower()
    screenshot("messages-replied")
    fresh_app.open("/app")
    wait_until(lambda: fresh_app.text("#messages-link") == "Messages", 15, "home to count nothing new")

    # The researcher sees the reply, and that the message was read.
    website.open("/studies/demo/messages", "Messages")
    assert REPLY in " ".join(website.texts("#replies td"))
    website.follow(label, "Messages with " + label)
    conversation = website.field("#conversation").text
    assert TEXT in conversation and REPLY in conversation and " · read " in conversation, conversation
    axe_check(website.driver, "website-participant-messages")
    screenshot("website-participant-messages", website.driver)


def test_webkit_inbox_and_reply(webkit_app, server, website, axe_check):
    sign_in(website)
    participant_id = webkit_app.join("demo", registration=DEMO_REGISTRATION, notifications=False)
    label = server.rows("participants", id=participant_id)[0]["label"]
    write(website, label, TEXT, axe_check, "website-messages-webkit")

    webkit_app.open("/app/messages")
    webkit_app.wait_visible("#messages .from-researchers")
    assert TEXT in webkit_app.text("#messages")
    wait_until(lambda: server.rows("messages", participant_id=participant_id)[0]["read_at"], 15, "the message to be marked read")
    axe_check(webkit_app.driver, "messages-webkit")
    webkit_app.type("#reply-text", REPLY)
    webkit_app.click("#reply-send")
    wait_until(lambda: REPLY in webkit_app.text("#messages"), 15, "the reply in WebKit's inbox")
    assert len([row for row in server.rows("messages", participant_id=participant_id) if row["from_participant"]]) == 1
