/* Corpus source for the assembly round-trip test: workload-like code (arrays, strings,
 * recursion, structs by value, varargs, bit tricks, tail calls, static data). */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

static const char *const names[] = {"alpha", "beta", "gamma", "delta"};
static int table[64];
int big[1024];
char buffer[300];

struct point { int x, y; short z; unsigned char w; signed char v; };

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static int helper(int x) { return x * 3 + 1; }
int tail(int x) { return helper(x) + helper(x + 1); }
extern int ext_fn(int);
int tailcall(int x) { return ext_fn(x + 1); }

int sum(int n, ...) {
    va_list ap;
    va_start(ap, n);
    int s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, int);
    va_end(ap);
    return s;
}

struct point move(struct point p, int dx) {
    p.x += dx; p.y -= dx; p.z = (short)(p.z + 1); p.w ^= 1; p.v = (signed char)-p.v;
    return p;
}

unsigned popcount(unsigned x) {
    unsigned c = 0;
    while (x) { x &= x - 1; c++; }
    return c;
}

int fill(int k) {
    for (int i = 0; i < 64; i++) table[i] = i * k;
    for (int i = 0; i < 1024; i++) big[i] = table[i & 63] + i;
    return big[1023] + table[5];
}

size_t name_len(int i) { return strlen(names[i & 3]); }

void copy(char *dst, const char *src, int n) { memcpy(dst, src, (size_t)n); memset(buffer, 0, sizeof buffer); }

int bits(int x, unsigned y) {
    return (~x) + (-x) + (x == 0) + (int)(y != 0) + (int)(unsigned char)x + (int)(signed char)y
        + (int)(unsigned short)x + (int)(short)y;
}

long long shifts(long long a, int s) { return (a << s) + (a >> s) + (long long)((unsigned long long)a >> s); }

static int (*const ops[])(int) = {fib, helper, tail};
int dispatch(int i, int v) { return ops[i % 3](v); }

int local_array(int n) {
    volatile int a[100];
    for (int i = 0; i < 100; i++) a[i] = i ^ n;
    return a[n % 100];
}

int *addr_of_big(void) { return &big[200]; }
int load_big(void) { return big[3] + big[1000]; }
float fadd(float a, float b) { return a * b + 1.5f; }
double dmul(double a, double b) { return a / b - 2.0; }
int main(void) { return fill(3) + fib(10) + tail(2) + sum(3, 1, 2, 3) + (int)name_len(1); }
