"""Invitation codes as a researcher hands them out: each with its full join link, a button that
copies it, and a QR code drawn by the server that scans (read with zxing-cpp, written apart from
our encoder) to exactly that link; and a sheet of cards to print."""
from selenium.webdriver.common.by import By

from harness import wait_until
from qr_decode import decode_qr_svg
from test_website_accessibility import sign_in_as_new_developer


def test_codes_have_join_links_copy_buttons_and_qr_codes_that_scan(chromium, server, screenshot, axe_check):
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "invitations@example.org", "Code Giver")
    driver.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": server.origin, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})

    driver.get(server.origin + "/studies/demo/invitees")
    count = driver.find_element(By.ID, "count")
    count.clear()
    count.send_keys("2")
    driver.find_element(By.XPATH, "//button[normalize-space()='Create codes']").click()
    wait_until(lambda: "created=" in driver.current_url, 15, "the new codes to be shown")
    assert "2 new codes made" in driver.find_element(By.CSS_SELECTOR, "div.notice").text
    assert not driver.find_elements(By.CSS_SELECTOR, "p.notice"), "no other confirmation (such as a new study's) is shown"
    created = driver.find_element(By.CSS_SELECTOR, "div.notice .codes").text.split()
    assert len(created) == 2
    screenshot("website-invitees-links")
    axe_check(driver, "invitees with join links and QR codes")

    for code in created:
        row = driver.find_element(By.XPATH, f"//tr[td[@class='codes' and normalize-space()='{code}']]")
        link = row.find_element(By.CSS_SELECTOR, "td.link a")
        expected = f"{server.origin}/join/demo?code={code}"
        assert link.text == expected and link.get_attribute("href") == expected

        image = row.find_element(By.CSS_SELECTOR, "img")
        svg = driver.execute_async_script(
            "const done = arguments[1]; fetch(arguments[0]).then(r => r.text()).then(done, e => done(String(e)))",
            image.get_attribute("src"))
        assert decode_qr_svg(svg) == expected, "the QR code does not scan to the join link"
        assert driver.execute_script("return arguments[0].complete && arguments[0].naturalWidth > 0", image)

        copy = row.find_element(By.CSS_SELECTOR, "button.copy")
        assert copy.is_displayed(), "the copy button stays hidden although the browser can copy"
        copy.click()
        wait_until(lambda: driver.find_element(By.ID, "copy-status").get_attribute("textContent") == "Copied " + expected,
                   10, "the page to say the link was copied")
        copied = driver.execute_async_script(
            "const done = arguments[0]; navigator.clipboard.readText().then(done, e => done('error: ' + e))")
        assert copied == expected

    driver.find_element(By.LINK_TEXT, "open them as a sheet to print").click()
    wait_until(lambda: "sheet=1" in driver.current_url, 15, "the sheet to open")
    cards = driver.find_elements(By.CSS_SELECTOR, ".code-sheet li")
    assert len(cards) >= 2 and all(card.find_element(By.TAG_NAME, "img").get_attribute("src") for card in cards)
    assert any(created[0] in card.text for card in cards)
    screenshot("website-invitees-sheet")
    axe_check(driver, "invitees as a sheet to print")
