"""The asyncio client against a real heraldd."""
import asyncio
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from herald_client import CLIENT_VERSION, AsyncClient, ConnectionClosed, HeraldError  # noqa: E402
from heraldd import RunningHeraldd  # noqa: E402
from test_client import APP, EVENT_WAIT, incoming  # noqa: E402


class AsyncClientTests(unittest.TestCase):
    def setUp(self):
        self.heraldd = RunningHeraldd().start()
        self.addCleanup(self.heraldd.remove)

    def run_async(self, test):
        asyncio.run(asyncio.wait_for(test(), 60))

    def test_donate_update_content_and_a_typed_error(self):
        async def test():
            async with AsyncClient(self.heraldd.socket_path) as client:
                await client.donate(app=APP, interaction=incoming("m-17"))
                updated = await client.update_content(app=APP, interactionIdentifier="m-17", content={"body": "Lunch?"})
                self.assertEqual(updated["content"]["title"], "Ann Lee")
                with self.assertRaises(HeraldError) as raised:
                    await client.set_focus(focus={"name": "Work", "alowedPeople": []})
                self.assertEqual((raised.exception.code, raised.exception.pointer), (-32602, "/focus/alowedPeople"))
                self.assertIn("did you mean `allowedPeople`?", raised.exception.reason)
        self.run_async(test)

    def test_calls_at_once_on_one_connection_each_get_their_answer(self):
        async def test():
            async with AsyncClient(self.heraldd.socket_path) as client:
                results = await asyncio.gather(*(client.donate(app=APP, interaction=incoming(f"m-{n}")) for n in range(20)))
                self.assertEqual([result["identifier"] for result in results], [f"m-{n}" for n in range(20)])
        self.run_async(test)

    def test_focus_subscription_as_an_async_iterator(self):
        async def test():
            async with AsyncClient(self.heraldd.socket_path) as app, AsyncClient(self.heraldd.socket_path) as person:
                await app.request_focus(app=APP, subscribe=True)
                await person.set_focus_authorization(app=APP, status="authorized")
                await person.set_focus(focus={"name": "Work"})
                seen = []
                async for event in app.events():
                    seen.append((event.method, event.params["authorizationStatus"], event.params["focusStatus"]))
                    if len(seen) == 2:
                        break
                self.assertEqual(seen, [("focus-changed", "authorized", {"isFocused": False}),
                                        ("focus-changed", "authorized", {"isFocused": True})])
        self.run_async(test)

    def test_the_version_check_and_reconnection(self):
        async def test():
            client = await AsyncClient.open(self.heraldd.socket_path)
            try:
                self.assertEqual(await client.require_protocol(), CLIENT_VERSION)
                await client.request_focus(app=APP, subscribe=True)
                self.heraldd.stop()
                with self.assertRaises(ConnectionClosed):
                    await client.next_event(timeout=EVENT_WAIT)
                self.heraldd.start()
                self.assertEqual(len(await client.reconnect(attempts=50, initial_delay=0.05)), 1)
                async with AsyncClient(self.heraldd.socket_path) as person:
                    await person.set_focus_authorization(app=APP, status="denied")
                event = await client.next_event(timeout=EVENT_WAIT)
                self.assertEqual((event.method, event.params["authorizationStatus"]), ("focus-changed", "denied"))
            finally:
                await client.close()
        self.run_async(test)


if __name__ == "__main__":
    unittest.main()
