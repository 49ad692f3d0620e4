"""A researcher archives a study (its join page then says it has ended) and deletes it after
typing its slug, on the website as a person would."""
from selenium.webdriver.common.by import By

from harness import wait_until
from test_website_accessibility import sign_in_as_new_developer


def test_archive_then_delete_a_study(chromium, server, screenshot, axe_check):
    driver = chromium.driver
    sign_in_as_new_developer(chromium, server, "ender@example.org", "Study Ender")
    driver.get(server.origin + "/studies/new")
    driver.find_element(By.ID, "slug").send_keys("short-lived")
    driver.find_element(By.ID, "name").send_keys("Short-lived study")
    driver.find_element(By.ID, "consentText").send_keys("You agree to take part.")
    driver.find_element(By.XPATH, "//main//form//button[@type='submit']").click()
    wait_until(lambda: "created=1" in driver.current_url, 15, "the study to be created")

    driver.find_element(By.LINK_TEXT, "Archive or delete this study").click()
    driver.find_element(By.XPATH, "//button[normalize-space()='Archive the study']").click()
    # The click posts the form; the refusal is on the page that comes back, so wait for it.
    wait_until(lambda: driver.find_elements(By.ID, "archive-problem"), 15, "the refusal to archive unconfirmed")
    assert "Tick the box" in driver.find_element(By.ID, "archive-problem").text, "archiving without confirming is refused"
    driver.find_element(By.NAME, "confirm").click()
    driver.find_element(By.XPATH, "//button[normalize-space()='Archive the study']").click()
    wait_until(lambda: "saved=1" in driver.current_url, 15, "the study to be archived")
    assert "Archived on" in driver.page_source
    screenshot("website-study-archived")
    axe_check(driver, "an archived study's page")

    driver.get(server.origin + "/join/short-lived")
    wait_until(lambda: driver.find_elements(By.ID, "study-not-ready"), 15, "the join page to load the study")
    assert "has ended" in driver.find_element(By.ID, "study-not-ready").text

    driver.get(server.origin + "/studies/short-lived/end")
    driver.find_element(By.ID, "confirm-slug").send_keys("short")
    driver.find_element(By.XPATH, "//button[normalize-space()='Delete the study for good']").click()
    wait_until(lambda: driver.find_elements(By.ID, "delete-problem"), 15, "the refusal to delete with a wrong slug")
    assert "is not this study" in driver.find_element(By.ID, "delete-problem").text
    driver.find_element(By.ID, "confirm-slug").send_keys("short-lived")
    driver.find_element(By.XPATH, "//button[normalize-space()='Delete the study for good']").click()
    wait_until(lambda: "deleted=" in driver.current_url, 15, "the study to be deleted")
    assert "was deleted" in driver.find_element(By.CSS_SELECTOR, "p.notice").text
    assert "short-lived" not in driver.find_element(By.TAG_NAME, "table").text
