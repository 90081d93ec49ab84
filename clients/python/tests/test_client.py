"""The sync client against a real heraldd."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from herald_client import CLIENT_VERSION, Client, ConnectionClosed, HeraldError, IncompatibleProtocol  # noqa: E402
from heraldd import RunningHeraldd  # noqa: E402

APP = "org.example.chat"
ANN = {"handle": {"value": "ann@example.org", "type": "emailAddress"}, "displayName": "Ann Lee"}
EVENT_WAIT = 10.0
"""How long a test waits for an event before it fails: a bound against a hang, not a timing."""


def incoming(identifier: str, content: str = "Lunch?"):
    return {"identifier": identifier, "direction": "incoming",
            "intent": {"type": "sendMessage", "sender": ANN, "conversationIdentifier": "c-ann", "content": content}}


class ClientTests(unittest.TestCase):
    def setUp(self):
        self.heraldd = RunningHeraldd().start()
        self.addCleanup(self.heraldd.remove)
        self.client = Client(self.heraldd.socket_path, timeout=30)
        self.addCleanup(self.client.close)

    def test_donate_then_update_content_makes_a_communication_notification(self):
        donated = self.client.donate(app=APP, interaction=incoming("m-17"))
        self.assertEqual(donated["identifier"], "m-17")
        updated = self.client.update_content(app=APP, interactionIdentifier="m-17",
                                             content={"title": "New message", "body": "Lunch?"})
        self.assertEqual(updated["content"]["title"], "Ann Lee")
        self.assertEqual(updated["content"]["communication"]["sender"]["displayName"], "Ann Lee")
        self.assertIn(updated["delivery"]["presentation"], ("alert", "quiet", "summary"))

    def test_bad_params_raise_an_error_with_reason_and_pointer(self):
        with self.assertRaises(HeraldError) as raised:
            self.client.donate(app=APP, interaction={"direction": "incoming", "intent": {
                "type": "sendMessage", "conversationIdentifier": "c", "sender": {"handle": {"value": 42}}}})
        self.assertEqual(raised.exception.code, -32602)
        self.assertEqual(raised.exception.pointer, "/interaction/intent/sender/handle/value")
        self.assertIn("must be a string", raised.exception.reason)
        with self.assertRaises(HeraldError) as raised:
            self.client.update_content(app=APP, interactionIdentifier="never-donated", content={"body": "x"})
        self.assertEqual((raised.exception.code, raised.exception.pointer), (1001, "/interactionIdentifier"))

    def test_the_connection_goes_on_after_an_error(self):
        with self.assertRaises(HeraldError):
            self.client.call("update-contents", {"app": APP})
        self.assertEqual(self.client.donate(app=APP, interaction=incoming("m-1"))["identifier"], "m-1")

    def test_request_focus_and_get_focus(self):
        asked = self.client.request_focus(app=APP, requestAuthorization=True)
        self.assertEqual(asked, {"authorizationStatus": "notDetermined", "focusStatus": None})
        self.client.set_focus_authorization(app=APP, status="authorized")
        self.client.set_focus(focus={"name": "Work", "allowedPeople": [ANN]})
        self.assertEqual(self.client.request_focus(app=APP)["focusStatus"], {"isFocused": True})
        focus = self.client.get_focus()
        self.assertEqual(focus["active"]["name"], "Work")

    def test_a_focus_subscription_hears_the_change(self):
        subscribed = self.client.request_focus(app=APP, subscribe=True)
        self.assertEqual(subscribed["authorizationStatus"], "notDetermined")
        with Client(self.heraldd.socket_path, timeout=30) as person:
            person.set_focus_authorization(app=APP, status="authorized")
        event = self.client.next_event(timeout=EVENT_WAIT)
        self.assertIsNotNone(event)
        self.assertEqual(event.method, "focus-changed")
        self.assertEqual(event.params, {"app": APP, "authorizationStatus": "authorized", "focusStatus": {"isFocused": False}})

    def test_a_response_reaches_the_subscribed_app(self):
        self.client.set_notification_categories(app=APP, categories=[{"identifier": "message", "actions": [
            {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}]}])
        self.client.donate(app=APP, interaction=incoming("m-2"))
        self.client.update_content(app=APP, identifier="m-2", interactionIdentifier="m-2",
                                   content={"body": "Lunch?", "categoryIdentifier": "message"})
        self.assertEqual(self.client.subscribe_responses(app=APP)["pending"], 0)
        with Client(self.heraldd.socket_path, timeout=30) as person:
            person.respond_to_notification(app=APP, identifier="m-2", actionIdentifier="reply", userText="On my way")
        events = self.client.events(timeout=EVENT_WAIT)
        response = next(event for event in events if event.method == "notification-response")
        self.assertEqual((response.params["identifier"], response.params["userText"]), ("m-2", "On my way"))

    def test_the_protocol_version_is_checked(self):
        daemon = self.client.require_protocol()
        self.assertEqual(daemon, CLIENT_VERSION)
        self.assertTrue(self.client.supports("update-content"))
        self.assertFalse(self.client.supports("update-contents"))
        with self.assertRaises(IncompatibleProtocol):
            self.client.require_protocol(f"{CLIENT_VERSION.major}.{CLIENT_VERSION.minor + 1}")
        with self.assertRaises(IncompatibleProtocol):
            self.client.require_protocol(f"{CLIENT_VERSION.major + 1}.0")

    def test_reconnect_subscribes_again_after_heraldd_restarts(self):
        self.client.request_focus(app=APP, subscribe=True)
        self.heraldd.stop()
        with self.assertRaises(ConnectionClosed):
            self.client.next_event(timeout=EVENT_WAIT)
        self.heraldd.start()
        replayed = self.client.reconnect(attempts=50, initial_delay=0.05)
        self.assertEqual(len(replayed), 1)
        with Client(self.heraldd.socket_path, timeout=30) as person:
            person.set_focus_authorization(app=APP, status="denied")
        event = self.client.next_event(timeout=EVENT_WAIT)
        self.assertEqual((event.method, event.params["authorizationStatus"]), ("focus-changed", "denied"))


if __name__ == "__main__":
    unittest.main()
