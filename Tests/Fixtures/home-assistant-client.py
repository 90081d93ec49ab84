"""A Home Assistant stand-in for HeraldSyncHomeAssistantEndToEndTests, with paho-mqtt:
reads herald-sync's MQTT discovery of the Focus `select`, and does what Home Assistant
does with it, rendering its templates with Jinja as Home Assistant does.

Usage: home-assistant-client.py HOST PORT USER PASSWORD ACTION OPTION
  ACTION set:     publish OPTION through command_topic/command_template, then wait for
                  the state to say it
  ACTION state:   wait until the state (state_topic/value_template) says OPTION
  ACTION options: wait until the discovery's options hold OPTION
Prints what it saw; exits 0 when it happened within 20 s, 1 otherwise.
"""
import datetime
import json
import sys
import threading

import jinja2
import paho.mqtt.client as mqtt

host, port, user, password, action, option = sys.argv[1:7]
seen = {"config": None, "state": None}
done = threading.Event()
environment = jinja2.Environment()
environment.globals["now"] = lambda: datetime.datetime.now(datetime.timezone.utc)


def check():
    config = seen["config"]
    if config is None:
        return
    if action == "options" and option in config["options"]:
        done.set()
    if action in ("set", "state") and seen["state"] == option:
        done.set()


def on_message(client, userdata, message):
    if message.topic.startswith("homeassistant/"):
        first = seen["config"] is None
        seen["config"] = json.loads(message.payload)
        print("config", json.dumps(seen["config"]), flush=True)
        if first:
            client.subscribe(seen["config"]["state_topic"], qos=1)
            if action == "set":
                config = seen["config"]
                command = environment.from_string(config["command_template"]).render(value=option)
                print("command", command, flush=True)
                client.publish(config["command_topic"], command, qos=config.get("qos", 0), retain=config.get("retain", False))
    elif seen["config"] is not None and message.topic == seen["config"]["state_topic"]:
        value_json = json.loads(message.payload)
        seen["state"] = environment.from_string(seen["config"]["value_template"]).render(value_json=value_json)
        print("state", seen["state"], flush=True)
    check()


try:
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2)
except AttributeError:
    client = mqtt.Client()
client.username_pw_set(user, password)
client.on_message = on_message
client.on_connect = lambda client, *rest: client.subscribe("homeassistant/select/+/+/config", qos=1)
client.connect(host, int(port))
client.loop_start()
happened = done.wait(20)
client.loop_stop()
sys.exit(0 if happened else 1)
