#ifndef HERALD_CMOSQUITTO_SHIM_H
#define HERALD_CMOSQUITTO_SHIM_H
#include <mosquitto.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#endif
