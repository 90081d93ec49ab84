#!/usr/bin/env python3
"""A small messaging app on Herald: the counterpart of Apple's sample "Handling Communication
Notifications and Focus Status Updates", on the Python client (clients/python).

It is Ann's chat app on this host. It
- sets a `message` category whose `reply` action takes text, and a `call` category;
- donates an incoming group message from Bob with its sender and recipients, and updates
  the notification's content from it (Herald fills in the sender's name, the group, the
  avatar, and decides whether it breaks through Focus);
- donates Ann's outgoing message and an incoming call;
- asks for Focus status, subscribes to it, and shows "Ann has notifications silenced" (what
  the app would share with Ann's contacts) when a Focus silences it;
- handles the person's reply to the notification by sending (donating) it as Ann's message;
- recovers when heraldd restarts: connects again and repeats its subscriptions.

Usage: chat.py [--socket PATH] [--replies N] [--timeout SECONDS]
With --replies N it ends after handling N replies (its test uses that); else it runs until
interrupted. Each line it prints is what the app would show.
"""
import argparse
import sys

from herald_client import Client, ConnectionClosed, HeraldError

APP = "org.example.chat"
BOB = {"handle": {"value": "bob@example.org", "type": "emailAddress"}, "displayName": "Bob Stone"}
CAROL = {"handle": {"value": "carol@example.org", "type": "emailAddress"}, "displayName": "Carol Diaz"}
GROUP = "lunch-crew"


def say(line: str) -> None:
    print(line, flush=True)


def message(identifier: str, direction: str, content: str, sender=None):
    """An INSendMessageIntent interaction in the group conversation. Ann herself is never one
    of its people: an incoming message names its sender, an outgoing one only the recipients."""
    intent = {"type": "sendMessage", "recipients": [BOB, CAROL], "content": content,
              "speakableGroupName": "Lunch crew", "conversationIdentifier": GROUP}
    if sender is not None:
        intent["sender"] = sender
        intent["recipients"] = [person for person in intent["recipients"] if person is not sender]
    return {"identifier": identifier, "direction": direction, "groupIdentifier": GROUP, "intent": intent}


def show_focus(status) -> None:
    """The app's view of Ann's Focus, as the seeds' sample shows it to her contacts."""
    focus = status.get("focusStatus")
    if focus is None:
        say(f"focus status not shared (authorization: {status['authorizationStatus']})")
    elif focus.get("isFocused"):
        say("Ann has notifications silenced")
    else:
        say("Ann is available")


def set_up(herald: Client) -> None:
    herald.set_notification_categories(app=APP, categories=[
        {"identifier": "message", "actions": [
            {"identifier": "reply", "title": "Reply", "textInput": {"buttonTitle": "Send", "placeholder": "Message"}}]},
        {"identifier": "call", "actions": [{"identifier": "call-back", "title": "Call back"}]},
    ])
    show_focus(herald.request_focus(app=APP, requestAuthorization=True, subscribe=True))
    waiting = herald.subscribe_responses(app=APP)["pending"]
    if waiting:
        say(f"{waiting} responses were waiting")


def receive_and_send(herald: Client) -> None:
    herald.donate(app=APP, interaction=message("m-1", "incoming", "Lunch at noon?", sender=BOB))
    note = herald.update_content(app=APP, identifier="m-1", interactionIdentifier="m-1",
                                 content={"body": "Lunch at noon?", "categoryIdentifier": "message"})
    content = note["content"]
    say(f"notification m-1: {content['title']} ({content.get('subtitle', '')}): {content['body']}"
        f" [{note['delivery']['presentation']}]")

    herald.donate(app=APP, interaction=message("m-2", "outgoing", "Sounds good"))
    say("sent m-2: Sounds good")

    call = {"identifier": "call-1", "direction": "incoming",
            "intent": {"type": "startCall", "contacts": [BOB], "callCapability": "audioCall"}}
    herald.donate(app=APP, interaction=call)
    note = herald.update_content(app=APP, identifier="call-1", interactionIdentifier="call-1",
                                 content={"body": "Incoming call", "categoryIdentifier": "call",
                                          "interruptionLevel": "timeSensitive"})
    say(f"notification call-1: {note['content']['title']}: {note['content']['body']}"
        f" [{note['delivery']['presentation']}]")


def handle(herald: Client, event, replies: int) -> int:
    """Reacts to one event; returns the replies handled so far."""
    if event.method == "focus-changed":
        show_focus(event.params)
    elif event.method == "notification-response":
        response = event.params
        if response["actionIdentifier"] == "reply" and response.get("userText"):
            replies += 1
            text = response["userText"]
            herald.donate(app=APP, interaction=message(f"reply-{replies}", "outgoing", text))
            say(f"replied to {response['identifier']}: {text}")
        else:
            say(f"{response['actionIdentifier']} on {response['identifier']}")
    return replies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--socket", help="heraldd's socket (default: $HERALD_SOCKET, else heraldd's default)")
    parser.add_argument("--replies", type=int, help="end after handling this many replies")
    parser.add_argument("--timeout", type=float, default=None, help="give up after this many seconds without an event")
    arguments = parser.parse_args()

    with Client(arguments.socket) as herald:
        try:
            herald.require_protocol("1.0")
            set_up(herald)
            receive_and_send(herald)
        except HeraldError as error:
            say(f"heraldd refused {error}: {error.reason} (at {error.pointer})")
            return 1
        say("ready")
        replies = 0
        while arguments.replies is None or replies < arguments.replies:
            try:
                event = herald.next_event(timeout=arguments.timeout)
            except ConnectionClosed:
                say("heraldd went away; connecting again")
                again = herald.reconnect(attempts=100)
                say(f"reconnected; {len(again)} subscriptions repeated")
                show_focus(herald.request_focus(app=APP))
                continue
            if event is None:
                say("no event came in time")
                return 1
            replies = handle(herald, event, replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
