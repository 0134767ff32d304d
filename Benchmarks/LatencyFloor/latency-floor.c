/* latency-floor: what this machine allows a change's path, without any server code.
 *
 * The shape of one-subscriber Watch delivery, with nothing else: a client thread sends one
 * byte every --interval-ms (open loop, timerfd) on a loopback TCP connection; server thread A
 * reads it and busy-works --work-us microseconds (the write), wakes thread B through an
 * eventfd and, with --respond, answers the sender with one byte (the Select's response);
 * B busy-works --delivery-us, then writes one byte on a second loopback connection. The
 * client busy-works --client-us for each change (half per byte it reads when it gets a
 * response too). Prints the send-to-delivery latency of --changes changes:
 *   {"changes":N,"work_us":W,"delivery_us":D,"client_us":C,"respond":R,"p50_ms":..,"p99_ms":..,"max_ms":..,"over_1ms":..}
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int a_fd, b_fd, wake_fd, work_us = 250, delivery_us, client_us, respond;

static uint64_t now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000u + (uint64_t)t.tv_nsec / 1000u;
}

/* Keeps this thread on its CPU for `us` microseconds. */
static void busy(int us) {
  uint64_t start = now_us();
  while (now_us() - start < (uint64_t)us) {
  }
}

static void die(const char *what) {
  perror(what);
  exit(1);
}

/* Server thread A: one unit of work per byte read, then wake B. */
static void *writer_thread(void *unused) {
  (void)unused;
  char buffer[64];
  for (;;) {
    ssize_t n = read(a_fd, buffer, sizeof buffer);
    if (n <= 0) return NULL;
    for (ssize_t i = 0; i < n; i++) {
      busy(work_us);
      uint64_t one = 1;
      if (write(wake_fd, &one, sizeof one) != sizeof one) die("eventfd write");
      if (respond && write(a_fd, "r", 1) != 1) die("respond");
    }
  }
}

/* Server thread B: one byte to the client per change it is woken for. */
static void *subscriber_thread(void *unused) {
  (void)unused;
  char zeros[64] = {0};
  for (;;) {
    uint64_t count;
    if (read(wake_fd, &count, sizeof count) != sizeof count) return NULL;
    busy(delivery_us * (int)count);
    for (uint64_t left = count; left > 0;) {
      ssize_t written = write(b_fd, zeros, left > sizeof zeros ? sizeof zeros : left);
      if (written <= 0) return NULL;
      left -= (uint64_t)written;
    }
  }
}

/* A connected loopback pair through `listener`: the client end is returned, the server's set. */
static int connect_pair(int listener, struct sockaddr_in *address, int *server_end) {
  int one = 1, client = socket(AF_INET, SOCK_STREAM, 0);
  if (client < 0 || connect(client, (struct sockaddr *)address, sizeof *address) < 0) die("connect");
  if ((*server_end = accept(listener, NULL, NULL)) < 0) die("accept");
  setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  setsockopt(*server_end, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return client;
}

static int compare(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int changes = 2000, interval_ms = 1, port = 50098;
  for (int i = 1; i < argc; i++) {
    const char *flag = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(flag, "--respond")) { respond = 1; continue; }
    if (!value) flag = "";
    if (!strcmp(flag, "--changes")) changes = atoi(value);
    else if (!strcmp(flag, "--work-us")) work_us = atoi(value);
    else if (!strcmp(flag, "--delivery-us")) delivery_us = atoi(value);
    else if (!strcmp(flag, "--client-us")) client_us = atoi(value);
    else if (!strcmp(flag, "--interval-ms")) interval_ms = atoi(value);
    else if (!strcmp(flag, "--port")) port = atoi(value);
    else {
      fprintf(stderr, "usage: latency-floor [--changes 2000] [--work-us 250] [--delivery-us 0] [--client-us 0] [--respond]\n"
                      "                     [--interval-ms 1] [--port 50098]\n");
      return 2;
    }
    i++;
  }
  if (changes < 1 || work_us < 0 || delivery_us < 0 || client_us < 0 || interval_ms < 1) {
    fprintf(stderr, "latency-floor: counts must be positive, times not negative\n");
    return 2;
  }
  struct sockaddr_in address = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  address.sin_port = htons((uint16_t)port);
  int one = 1, listener = socket(AF_INET, SOCK_STREAM, 0);
  setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (bind(listener, (struct sockaddr *)&address, sizeof address) < 0 || listen(listener, 2) < 0) die("listen");
  int to_writer = connect_pair(listener, &address, &a_fd);
  int from_subscriber = connect_pair(listener, &address, &b_fd);
  if ((wake_fd = eventfd(0, 0)) < 0) die("eventfd");
  pthread_t writer, subscriber;
  pthread_create(&writer, NULL, writer_thread, NULL);
  pthread_create(&subscriber, NULL, subscriber_thread, NULL);

  int poller = epoll_create1(0), timer = timerfd_create(CLOCK_MONOTONIC, 0);
  struct itimerspec every = {{interval_ms / 1000, (interval_ms % 1000) * 1000000L}, {interval_ms / 1000, (interval_ms % 1000) * 1000000L}};
  if (timer < 0 || timerfd_settime(timer, 0, &every, NULL) < 0) die("timerfd");
  struct epoll_event event = {.events = EPOLLIN, .data.fd = timer};
  epoll_ctl(poller, EPOLL_CTL_ADD, timer, &event);
  event.data.fd = from_subscriber;
  epoll_ctl(poller, EPOLL_CTL_ADD, from_subscriber, &event);
  event.data.fd = to_writer;
  epoll_ctl(poller, EPOLL_CTL_ADD, to_writer, &event);

  uint64_t *sent = calloc((size_t)changes, sizeof *sent), *latency = calloc((size_t)changes, sizeof *latency);
  int sent_count = 0, received = 0;
  while (received < changes) {
    struct epoll_event ready[2];
    int n = epoll_wait(poller, ready, 2, 10000);
    if (n <= 0) die("no progress in 10 s");
    for (int i = 0; i < n; i++) {
      if (ready[i].data.fd == timer) {
        uint64_t expirations;
        if (read(timer, &expirations, sizeof expirations) < 0) die("timerfd read");
        if (sent_count < changes) {
          sent[sent_count++] = now_us();
          if (write(to_writer, "c", 1) != 1) die("send");
        }
      } else if (ready[i].data.fd == to_writer) {
        char buffer[64];
        ssize_t got = read(to_writer, buffer, sizeof buffer);
        if (got <= 0) die("response");
        busy(client_us / 2 * (int)got);
      } else {
        char buffer[64];
        ssize_t got = read(from_subscriber, buffer, sizeof buffer);
        if (got <= 0) die("receive");
        uint64_t now = now_us();
        busy((respond ? client_us / 2 : client_us) * (int)got);
        for (ssize_t j = 0; j < got && received < sent_count; j++, received++) latency[received] = now - sent[received];
      }
    }
  }
  int over = 0;
  for (int i = 0; i < changes; i++) over += latency[i] > 1000;
  qsort(latency, (size_t)changes, sizeof *latency, compare);
  printf("{\"changes\":%d,\"work_us\":%d,\"delivery_us\":%d,\"client_us\":%d,\"respond\":%d,\"p50_ms\":%.2f,\"p99_ms\":%.2f,"
         "\"max_ms\":%.2f,\"over_1ms\":%d}\n",
         changes, work_us, delivery_us, client_us, respond, latency[changes / 2] / 1000.0, latency[changes * 99 / 100] / 1000.0, latency[changes - 1] / 1000.0, over);
  return 0;
}
