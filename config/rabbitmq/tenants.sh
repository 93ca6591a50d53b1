#!/bin/sh
# A RabbitMQ virtual host that Punctual's API and several tenants share without reading, answering or
# suppressing one another's messages (docs/operations.md, "RPC for several tenants"). An example:
# run it as a user that may call rabbitmqctl, give each user a password of its own, and add one user
# per tenant like team-a and team-b below. Running it again changes nothing.
#
# The API:     RPC_TRANSPORT_URL=amqp://punctual:<password>@<host>:5672/punctual-tenants
# A tenant:    PunctualClient.overRpc({ transport: 'amqp://team-a:<password>@<host>:5672/punctual-tenants', keyId, secret })
#
# RabbitMQ permissions are three regular expressions over resource names: configure (declare, delete),
# write (publish to an exchange; the default exchange is amq.default) and read (consume from a queue).
set -eu

VHOST="${RABBITMQ_TENANTS_VHOST:-punctual-tenants}"

user() { # name password configure write read
  if rabbitmqctl -q list_users | cut -f1 | grep -qx "$1"; then
    rabbitmqctl -q change_password "$1" "$2" >/dev/null
  else
    rabbitmqctl -q add_user "$1" "$2" >/dev/null
  fi
  rabbitmqctl -q set_permissions -p "$VHOST" "$1" "$3" "$4" "$5" >/dev/null
}

rabbitmqctl -q list_vhosts | grep -qx "$VHOST" || rabbitmqctl -q add_vhost "$VHOST" >/dev/null

# Punctual's API: declares and consumes its queue (punctual, or punctual-<name> given as ?queue= for
# another deployment on the same virtual host, as the test runs do), and publishes only to the
# default exchange, where its replies go to each request's direct reply-to (it answers no other queue).
user punctual punctual-rabbitmq-dev-password '^punctual(-.+)?$' '^amq\.default$' '^punctual(-.+)?$'
# A tenant: publishes requests to the default exchange and reads only its own replies, on direct
# reply-to, which needs no permission and belongs to its own channel. It may not declare, delete or
# consume Punctual's queue, so it neither reads nor takes nor drops another tenant's requests.
user team-a team-a-rabbitmq-dev-password '^$' '^amq\.default$' '^$'
user team-b team-b-rabbitmq-dev-password '^$' '^amq\.default$' '^$'
