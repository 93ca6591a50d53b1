#!/bin/sh
# Writes into DIR a Mosquitto configuration with the users of config/mosquitto/acl, each with a
# development password (<user>-mqtt-dev-password), for development and the test run only: the one
# scripts/services.sh starts when MQTT_TENANTS_URL is set. A deployment makes its own password file
# (config/mosquitto/mosquitto.conf says how).
#
#   sh config/mosquitto/dev-tenants.sh DIR ACL_FILE PORT [BIND_ADDRESS]; mosquitto -c DIR/mosquitto.conf
set -eu
dir=$1 acl=$2 port=$3 bind=${4:-}

: >"$dir/passwd"
# Mosquitto started as root reads them as its own user.
chmod 755 "$dir"
chmod 644 "$dir/passwd"
for user in punctual billing ledger; do mosquitto_passwd -b "$dir/passwd" "$user" "$user-mqtt-dev-password"; done
cat >"$dir/mosquitto.conf" <<CONF
listener $port $bind
allow_anonymous false
password_file $dir/passwd
acl_file $acl
CONF
