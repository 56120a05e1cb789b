/* FMI 2.0 wrapper around the C code CasADi generates for a jourdain System.
 *
 * Model exchange and co-simulation in one binary. The model-specific parts come from two
 * generated files: jd_model.h (CasADi functions jd_f(t, x, u, p) -> xdot,
 * jd_h(t, x, u, p) -> out, jd_energy(x, p) -> (T, V), and for the start state, computed in
 * fmi2ExitInitializationMode with the inputs and parameters set then: jd_drive0(t, x, u, p)
 * -> x0 (the drivers), jd_assemble(y, p) -> (y_next, residual) (one Newton step of the
 * closed loops' dependent coordinates; the continuation loop is here), jd_speeds(x, p) -> x0
 * (dependent speeds through G) and jd_init(t, x, u, p) -> (x0, residual) (the initial
 * equations of component states), jd_sample(t, x, u, p, active) -> p_next (the sampled
 * blocks due, in signal order: FMI time events)) and jd_config.h
 * (sizes, value references, start values, GUID, co-simulation integrator). No Python, no allocation
 * during a step; all work memory is allocated in fmi2Instantiate.
 *
 * Value references, contiguous: states x, derivatives der(x), inputs u, parameters p,
 * outputs, then energy.kinetic and energy.potential (see modelDescription.xml).
 * Co-simulation integrates with Dormand-Prince 5(4) (error control at the experiment's
 * tolerance, JD_CS_STEP the largest step) or classical RK4 (fixed step JD_CS_STEP); inputs
 * are held over a communication step.
 *
 * The FMI 2.0 types are declared here as the standard defines them (fmi2TypesPlatform.h,
 * fmi2FunctionTypes.h), so the build needs no headers besides the generated ones.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jd_config.h"
#include "jd_model.h"

#if defined(_WIN32)
#define FMI2_Export __declspec(dllexport)
#else
#define FMI2_Export __attribute__((visibility("default")))
#endif

typedef void *fmi2Component;
typedef void *fmi2ComponentEnvironment;
typedef void *fmi2FMUstate;
typedef unsigned int fmi2ValueReference;
typedef double fmi2Real;
typedef int fmi2Integer;
typedef int fmi2Boolean;
typedef char fmi2Char;
typedef const fmi2Char *fmi2String;
typedef char fmi2Byte;
#define fmi2True 1
#define fmi2False 0

typedef enum { fmi2OK, fmi2Warning, fmi2Discard, fmi2Error, fmi2Fatal, fmi2Pending } fmi2Status;
typedef enum { fmi2ModelExchange, fmi2CoSimulation } fmi2Type;
typedef enum {
    fmi2DoStepStatus, fmi2PendingStatus, fmi2LastSuccessfulTime, fmi2Terminated
} fmi2StatusKind;
typedef void (*fmi2CallbackLogger)(fmi2ComponentEnvironment, fmi2String, fmi2Status, fmi2String,
                                   fmi2String, ...);
typedef void *(*fmi2CallbackAllocateMemory)(size_t, size_t);
typedef void (*fmi2CallbackFreeMemory)(void *);
typedef void (*fmi2StepFinished)(fmi2ComponentEnvironment, fmi2Status);
typedef struct {
    fmi2CallbackLogger logger;
    fmi2CallbackAllocateMemory allocateMemory;
    fmi2CallbackFreeMemory freeMemory;
    fmi2StepFinished stepFinished;
    fmi2ComponentEnvironment componentEnvironment;
} fmi2CallbackFunctions;
typedef struct {
    fmi2Boolean newDiscreteStatesNeeded;
    fmi2Boolean terminateSimulation;
    fmi2Boolean nominalsOfContinuousStatesChanged;
    fmi2Boolean valuesOfContinuousStatesChanged;
    fmi2Boolean nextEventTimeDefined;
    fmi2Real nextEventTime;
} fmi2EventInfo;

#define N1(n) ((n) > 0 ? (n) : 1) /* C arrays may not be empty */
enum { MODE_INSTANTIATED, MODE_INITIALIZATION, MODE_RUNNING, MODE_TERMINATED };

/* What a saved FMU state holds (fmi2GetFMUstate, serialization). */
typedef struct {
    double t, h;
    double x[N1(JD_NX)], u[N1(JD_NU)], p[N1(JD_NP)];
    double k[N1(JD_NSAMPLED)]; /* next sample of each sampled block: t = start + k·period */
    int mode;
} Snapshot;

typedef struct {
    Snapshot s;
    double dx[N1(JD_NX)], out[N1(JD_NOUT)], energy[2];
    double k[7][N1(JD_NX)], xs[N1(JD_NX)], xn[N1(JD_NX)]; /* integrator stages */
    int fresh;             /* dx, out, energy belong to the current t, x, u, p */
    double tol;
    fmi2Type type;
    char *name;
    fmi2CallbackFunctions cb;
    int logging;
    const casadi_real **arg;
    casadi_real **res;
    casadi_int *iw;
    casadi_real *w;
    int mem_f, mem_h, mem_e, mem_i, mem_d, mem_a, mem_s, mem_p;
} Instance;

static void logf_(Instance *c, fmi2Status status, const char *category, const char *fmt, ...) {
    char buf[512];
    va_list ap;
    if (c == NULL || c->cb.logger == NULL || (status == fmi2OK && !c->logging)) return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    c->cb.logger(c->cb.componentEnvironment, c->name, status, category, buf);
}

/* ---- the compiled functions --------------------------------------------------------- */
static int eval_f(Instance *c, double t, const double *x, double *dx) {
    c->arg[0] = &t; c->arg[1] = x; c->arg[2] = c->s.u; c->arg[3] = c->s.p;
    c->res[0] = dx;
    if (jd_f(c->arg, c->res, c->iw, c->w, c->mem_f)) return 1;
    for (int i = 0; i < JD_NX; i++)
        if (!isfinite(dx[i])) return 2;
    return 0;
}

static fmi2Status refresh(Instance *c) {
    int bad;
    if (c->fresh) return fmi2OK;
    bad = eval_f(c, c->s.t, c->s.x, c->dx);
    if (bad) {
        logf_(c, fmi2Error, "logStatusError", "the state derivative %s at t = %g",
              bad == 1 ? "could not be evaluated" : "is not finite", c->s.t);
        return fmi2Error;
    }
    c->arg[0] = &c->s.t; c->arg[1] = c->s.x; c->arg[2] = c->s.u; c->arg[3] = c->s.p;
    c->res[0] = c->out;
    if (JD_NOUT > 0 && jd_h(c->arg, c->res, c->iw, c->w, c->mem_h)) return fmi2Error;
    c->arg[0] = c->s.x; c->arg[1] = c->s.p;
    c->res[0] = &c->energy[0]; c->res[1] = &c->energy[1];
    if (jd_energy(c->arg, c->res, c->iw, c->w, c->mem_e)) return fmi2Error;
    c->fresh = 1;
    return fmi2OK;
}

static void work_size(int (*work)(casadi_int *, casadi_int *, casadi_int *, casadi_int *),
                      casadi_int *sz) {
    casadi_int a, r, i, w;
    work(&a, &r, &i, &w);
    if (a > sz[0]) sz[0] = a;
    if (r > sz[1]) sz[1] = r;
    if (i > sz[2]) sz[2] = i;
    if (w > sz[3]) sz[3] = w;
}

/* ---- sampled blocks: time events ------------------------------------------------------ */
static double sample_time(const Instance *c, int i) {
    return jd_sample_start[i] + c->s.k[i] * jd_sample_period[i];
}

/* The counters at the start: each block's first instant at or after t0 (within the eps of
 * simulate's sampling.due), so a sample at t0 is due. */
static void sample_start(Instance *c) {
    for (int i = 0; i < JD_NSAMPLED; i++)
        c->s.k[i] = fmax(0.0, ceil((c->s.t - JD_SAMPLE_EPS - jd_sample_start[i]) /
                                   jd_sample_period[i]));
}

/* The next sample instant of any block (INFINITY without sampled blocks). */
static double next_sample(const Instance *c) {
    double next = INFINITY;
    for (int i = 0; i < JD_NSAMPLED; i++) next = fmin(next, sample_time(c, i));
    return next;
}

/* Apply the samples due at the current time (blocks in signal order, jd_sample) and advance
 * their counters; nothing when none is due. */
static fmi2Status sample_due(Instance *c) {
    double active[N1(JD_NSAMPLED)], p[N1(JD_NP)];
    int any = 0;
    for (int i = 0; i < JD_NSAMPLED; i++) {
        active[i] = fabs(sample_time(c, i) - c->s.t) <= JD_SAMPLE_EPS;
        if (active[i]) { any = 1; c->s.k[i] += 1; }
    }
    if (!any) return fmi2OK;
    c->arg[0] = &c->s.t; c->arg[1] = c->s.x; c->arg[2] = c->s.u; c->arg[3] = c->s.p;
    c->arg[4] = active; c->res[0] = p;
    if (jd_sample(c->arg, c->res, c->iw, c->w, c->mem_p)) {
        logf_(c, fmi2Error, "logStatusError", "the sampled blocks' update failed at t = %g",
              c->s.t);
        return fmi2Error;
    }
    for (int i = 0; i < JD_NP; i++)
        if (!isfinite(p[i])) {
            logf_(c, fmi2Error, "logStatusError", "a sampled block's held value is not "
                  "finite after its sample at t = %g", c->s.t);
            return fmi2Error;
        }
    memcpy(c->s.p, p, sizeof(double) * N1(JD_NP));
    c->fresh = 0;
    return fmi2OK;
}

/* ---- co-simulation integrators ------------------------------------------------------ */
static double wrms(const double *e, const double *a, const double *b, double tol) {
    double sum = 0;
    for (int i = 0; i < JD_NX; i++) {
        double scale = tol + tol * fmax(fabs(a[i]), fabs(b[i]));
        sum += (e[i] / scale) * (e[i] / scale);
    }
    return JD_NX > 0 ? sqrt(sum / JD_NX) : 0;
}

/* One step x(t) -> xn(t + h) with stages k; the 4th-order embedded error in err (DOPRI5)
 * or none (RK4). Returns nonzero when f fails. */
static int stage(Instance *c, double t, double h, int n, const double *a, double *xn) {
    for (int i = 0; i < JD_NX; i++) {
        double sum = c->s.x[i];
        for (int j = 0; j < n; j++) sum += h * a[j] * c->k[j][i];
        c->xs[i] = sum;
    }
    if (xn) memcpy(xn, c->xs, sizeof(double) * N1(JD_NX));
    return eval_f(c, t, c->xs, c->k[n]);
}

static int rk4_step(Instance *c, double t, double h) {
    static const double a1[] = {0.5}, a2[] = {0, 0.5}, a3[] = {0, 0, 1};
    if (eval_f(c, t, c->s.x, c->k[0]) || stage(c, t + h / 2, h, 1, a1, NULL) ||
        stage(c, t + h / 2, h, 2, a2, NULL) || stage(c, t + h, h, 3, a3, NULL)) return 1;
    for (int i = 0; i < JD_NX; i++)
        c->s.x[i] += h / 6 * (c->k[0][i] + 2 * c->k[1][i] + 2 * c->k[2][i] + c->k[3][i]);
    return 0;
}

static int dopri_step(Instance *c, double t, double h, double *err) {
    static const double a1[] = {1. / 5}, a2[] = {3. / 40, 9. / 40},
        a3[] = {44. / 45, -56. / 15, 32. / 9},
        a4[] = {19372. / 6561, -25360. / 2187, 64448. / 6561, -212. / 729},
        a5[] = {9017. / 3168, -355. / 33, 46732. / 5247, 49. / 176, -5103. / 18656},
        a6[] = {35. / 384, 0, 500. / 1113, 125. / 192, -2187. / 6784, 11. / 84};
    static const double e[] = {71. / 57600, 0, -71. / 16695, 71. / 1920, -17253. / 339200,
                               22. / 525, -1. / 40};
    double diff[N1(JD_NX)];
    if (eval_f(c, t, c->s.x, c->k[0]) || stage(c, t + h / 5, h, 1, a1, NULL) ||
        stage(c, t + 3 * h / 10, h, 2, a2, NULL) || stage(c, t + 4 * h / 5, h, 3, a3, NULL) ||
        stage(c, t + 8 * h / 9, h, 4, a4, NULL) || stage(c, t + h, h, 5, a5, NULL) ||
        stage(c, t + h, h, 6, a6, c->xn)) return 1;
    for (int i = 0; i < JD_NX; i++) {
        double sum = 0;
        for (int j = 0; j < 7; j++) sum += e[j] * c->k[j][i];
        diff[i] = h * sum;
    }
    *err = wrms(diff, c->s.x, c->xn, c->tol);
    return 0;
}

static fmi2Status integrate_to(Instance *c, double t_end);

/* Co-simulation over [t, t_end]: integrate from sample instant to sample instant and apply
 * the samples there (one reached at t_end too, so the outputs read after the step hold the
 * new values, as simulate's right-continuous results do). */
static fmi2Status integrate(Instance *c, double t_end) {
    if (sample_due(c) != fmi2OK) return fmi2Error;
    while (c->s.t < t_end - 1e-13 * fmax(1.0, fabs(t_end))) {
        double next = next_sample(c), target = t_end;
        if (next < t_end - JD_SAMPLE_EPS) target = next;
        if (integrate_to(c, target) != fmi2OK) return fmi2Error;
        c->s.t = target;
        if (sample_due(c) != fmi2OK) return fmi2Error;
    }
    return fmi2OK;
}

static fmi2Status integrate_to(Instance *c, double t_end) {
    long steps = 0;
    c->fresh = 0;
    while (c->s.t < t_end - 1e-13 * fmax(1.0, fabs(t_end))) {
        double left = t_end - c->s.t, h, err = 0;
        if (++steps > JD_CS_MAX_STEPS) {
            logf_(c, fmi2Error, "logStatusError", "more than %d steps before t = %g",
                  JD_CS_MAX_STEPS, t_end);
            return fmi2Error;
        }
        if (JD_CS_METHOD == 1) { /* classical RK4, fixed step */
            int n = (int)ceil(left / JD_CS_STEP - 1e-9);
            h = left / (n > 0 ? n : 1);
            if (rk4_step(c, c->s.t, h)) goto failed;
            c->s.t += h;
            continue;
        }
        h = fmin(fmin(c->s.h > 0 ? c->s.h : 1e-3 * left, JD_CS_STEP), left);
        if (dopri_step(c, c->s.t, h, &err)) {
            c->s.h = h / 4; /* f failed (e.g. a NaN far from the solution): retry smaller */
            if (c->s.h < 1e-14 * fmax(1.0, fabs(c->s.t))) goto failed;
            continue;
        }
        if (err <= 1.0) {
            memcpy(c->s.x, c->xn, sizeof(double) * N1(JD_NX));
            c->s.t = (h == left) ? t_end : c->s.t + h;
        }
        c->s.h = h * fmin(5.0, fmax(0.2, 0.9 * pow(err > 1e-16 ? err : 1e-16, -0.2)));
        if (c->s.h < 1e-14 * fmax(1.0, fabs(c->s.t))) goto failed;
    }
    return fmi2OK;
failed:
    logf_(c, fmi2Error, "logStatusError", "the integrator failed at t = %g (state derivative "
          "not finite or step size underflow)", c->s.t);
    return fmi2Error;
}

/* ---- common functions ----------------------------------------------------------------- */
FMI2_Export const char *fmi2GetTypesPlatform(void) { return "default"; }
FMI2_Export const char *fmi2GetVersion(void) { return "2.0"; }

FMI2_Export fmi2Status fmi2SetDebugLogging(fmi2Component c, fmi2Boolean on, size_t n,
                                           const fmi2String categories[]) {
    (void)n; (void)categories;
    if (c == NULL) return fmi2Error;
    ((Instance *)c)->logging = on;
    return fmi2OK;
}

static void reset(Instance *c) {
    memset(&c->s, 0, sizeof c->s);
    memcpy(c->s.x, jd_x_start, sizeof jd_x_start);
    memcpy(c->s.u, jd_u_start, sizeof jd_u_start);
    memcpy(c->s.p, jd_p_start, sizeof jd_p_start);
    c->s.mode = MODE_INSTANTIATED;
    c->tol = JD_TOLERANCE;
    c->fresh = 0;
}

FMI2_Export fmi2Component fmi2Instantiate(fmi2String name, fmi2Type type, fmi2String guid,
                                          fmi2String resources,
                                          const fmi2CallbackFunctions *functions,
                                          fmi2Boolean visible, fmi2Boolean logging) {
    Instance *c;
    casadi_int sz[4] = {0, 0, 0, 0};
    (void)resources; (void)visible;
    if (functions == NULL || name == NULL) return NULL;
    if (guid == NULL || strcmp(guid, JD_GUID) != 0) {
        if (functions->logger)
            functions->logger(functions->componentEnvironment, name, fmi2Error, "logStatusError",
                              "GUID does not match this binary (" JD_GUID ")");
        return NULL;
    }
    c = (Instance *)calloc(1, sizeof(Instance));
    if (c == NULL) return NULL;
    c->cb = *functions;
    c->type = type;
    c->logging = logging;
    c->name = (char *)malloc(strlen(name) + 1);
    if (c->name) strcpy(c->name, name);
    work_size(jd_f_work, sz);
    work_size(jd_h_work, sz);
    work_size(jd_energy_work, sz);
    work_size(jd_init_work, sz);
    work_size(jd_drive0_work, sz);
    work_size(jd_assemble_work, sz);
    work_size(jd_speeds_work, sz);
    work_size(jd_sample_work, sz);
    c->arg = (const casadi_real **)calloc(N1(sz[0]) + 4, sizeof(casadi_real *));
    c->res = (casadi_real **)calloc(N1(sz[1]) + 2, sizeof(casadi_real *));
    c->iw = (casadi_int *)calloc(N1(sz[2]), sizeof(casadi_int));
    c->w = (casadi_real *)calloc(N1(sz[3]), sizeof(casadi_real));
    if (!c->name || !c->arg || !c->res || !c->iw || !c->w) {
        free(c->name); free(c->arg); free(c->res); free(c->iw); free(c->w); free(c);
        return NULL;
    }
    jd_f_incref(); jd_h_incref(); jd_energy_incref(); jd_init_incref();
    jd_drive0_incref(); jd_assemble_incref(); jd_speeds_incref(); jd_sample_incref();
    c->mem_f = jd_f_checkout(); c->mem_h = jd_h_checkout(); c->mem_e = jd_energy_checkout();
    c->mem_i = jd_init_checkout(); c->mem_d = jd_drive0_checkout();
    c->mem_a = jd_assemble_checkout(); c->mem_s = jd_speeds_checkout();
    c->mem_p = jd_sample_checkout();
    reset(c);
    return c;
}

FMI2_Export void fmi2FreeInstance(fmi2Component comp) {
    Instance *c = (Instance *)comp;
    if (c == NULL) return;
    jd_f_release(c->mem_f); jd_h_release(c->mem_h); jd_energy_release(c->mem_e);
    jd_init_release(c->mem_i); jd_drive0_release(c->mem_d); jd_assemble_release(c->mem_a);
    jd_speeds_release(c->mem_s); jd_sample_release(c->mem_p);
    jd_f_decref(); jd_h_decref(); jd_energy_decref(); jd_init_decref();
    jd_drive0_decref(); jd_assemble_decref(); jd_speeds_decref(); jd_sample_decref();
    free(c->name); free(c->arg); free(c->res); free(c->iw); free(c->w); free(c);
}

FMI2_Export fmi2Status fmi2SetupExperiment(fmi2Component comp, fmi2Boolean tolDefined,
                                           fmi2Real tol, fmi2Real start, fmi2Boolean stopDefined,
                                           fmi2Real stop) {
    Instance *c = (Instance *)comp;
    (void)stopDefined; (void)stop;
    if (c == NULL) return fmi2Error;
    if (tolDefined && tol > 0) c->tol = tol;
    c->s.t = start;
    c->fresh = 0;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2EnterInitializationMode(fmi2Component comp) {
    if (comp == NULL) return fmi2Error;
    ((Instance *)comp)->s.mode = MODE_INITIALIZATION;
    return fmi2OK;
}

/* The closed loops assembled in x (coordinates first), as system.initialize does: the
 * coordinates jd_held are kept at their values in x, the dependent ones solved by Newton
 * (jd_assemble, one step per call) by continuation from the reference assembly jd_y_ref in
 * steps of at most JD_CONTINUATION of the held coordinates (the reference's branch). */
static fmi2Status assemble(Instance *c, double *x) {
#if JD_LOOPS
    double target[N1(JD_NY)], y[N1(JD_NY)], next[N1(JD_NY)], residual = NAN, span = 0,
        scale = 1;
    int n;
    memcpy(target, x, sizeof(double) * JD_NY);
    memcpy(y, jd_y_ref, sizeof(double) * JD_NY);
    for (int i = 0; i < JD_NY; i++) {
        if (jd_held[i]) span = fmax(span, fabs(target[i] - jd_y_ref[i]));
        scale = fmax(scale, fabs(target[i]));
    }
    if (!isfinite(span)) goto failed;
    n = (int)ceil(span / JD_CONTINUATION);
    if (n < 1) n = 1;
    for (int k = 1; k <= n; k++) {
        for (int i = 0; i < JD_NY; i++) /* the last step lands on the given values */
            if (jd_held[i])
                y[i] = k == n ? target[i]
                              : jd_y_ref[i] + (double)k / n * (target[i] - jd_y_ref[i]);
        for (int it = 0;; it++) {
            c->arg[0] = y; c->arg[1] = c->s.p;
            c->res[0] = next; c->res[1] = &residual;
            if (jd_assemble(c->arg, c->res, c->iw, c->w, c->mem_a)) residual = NAN;
            if (residual <= JD_ASSEMBLY_TOL * scale) break;
            if (!(residual == residual) || it == JD_MAX_NEWTON) {
                if (residual <= 1e3 * JD_ASSEMBLY_TOL * scale) break; /* round-off floor */
                goto failed;
            }
            memcpy(y, next, sizeof(double) * JD_NY);
        }
    }
    memcpy(x, y, sizeof(double) * JD_NY);
    return fmi2OK;
failed:
    logf_(c, fmi2Error, "logStatusError", "the closed loops cannot be assembled at t = %g "
          "with %s held at their start values (closure residual %g): give start values the "
          "loops can close at, or check the parameters set before initialization", c->s.t,
          JD_HELD_NAMES, residual);
    return fmi2Error;
#else
    (void)c; (void)x;
    return fmi2OK;
#endif
}

/* The start state for the current t, x, u, p: drivers' prescribed values (jd_drive0), closed
 * loops assembled and their dependent speeds completed (jd_speeds), initial equations of
 * component states solved by Newton (jd_init), in simulate's order. */
static fmi2Status initialize(Instance *c) {
    double a[N1(JD_NX)], b[N1(JD_NX)], residual = 0, scale = 1;
    c->arg[0] = &c->s.t; c->arg[1] = c->s.x; c->arg[2] = c->s.u; c->arg[3] = c->s.p;
    c->res[0] = a;
    if (jd_drive0(c->arg, c->res, c->iw, c->w, c->mem_d)) goto not_finite;
    if (assemble(c, a) != fmi2OK) return fmi2Error;
    c->arg[0] = a; c->arg[1] = c->s.p; c->res[0] = b;
    if (jd_speeds(c->arg, c->res, c->iw, c->w, c->mem_s)) goto not_finite;
    c->arg[0] = &c->s.t; c->arg[1] = b; c->arg[2] = c->s.u; c->arg[3] = c->s.p;
    c->res[0] = a; c->res[1] = &residual;
    if (jd_init(c->arg, c->res, c->iw, c->w, c->mem_i)) residual = NAN;
    for (int i = 0; i < JD_NX; i++) scale = fmax(scale, fabs(a[i]));
    if (!(residual <= JD_INIT_TOL * scale)) { /* NaN too: Newton diverged */
        logf_(c, fmi2Error, "logStatusError", "the initial equations have no solution near "
              "the start values at t = %g (residual %g): check the inputs and parameters set "
              "before initialization", c->s.t, residual);
        return fmi2Error;
    }
    for (int i = 0; i < JD_NX; i++)
        if (!isfinite(a[i])) goto not_finite;
    memcpy(c->s.x, a, sizeof(double) * N1(JD_NX));
    c->fresh = 0;
    return fmi2OK;
not_finite:
    logf_(c, fmi2Error, "logStatusError", "the start state is not finite at t = %g", c->s.t);
    return fmi2Error;
}

FMI2_Export fmi2Status fmi2ExitInitializationMode(fmi2Component comp) {
    Instance *c = (Instance *)comp;
    if (c == NULL) return fmi2Error;
    if (JD_NX > 0 && initialize(c) != fmi2OK) return fmi2Error;
    c->s.mode = MODE_RUNNING;
    sample_start(c);
    /* model exchange samples at t0 in the event iteration that follows (fmi2NewDiscreteStates);
     * co-simulation now, so the outputs read before the first step hold them */
    if (c->type == fmi2CoSimulation && sample_due(c) != fmi2OK) return fmi2Error;
    return refresh(c);
}

FMI2_Export fmi2Status fmi2Terminate(fmi2Component comp) {
    if (comp == NULL) return fmi2Error;
    ((Instance *)comp)->s.mode = MODE_TERMINATED;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2Reset(fmi2Component comp) {
    if (comp == NULL) return fmi2Error;
    reset((Instance *)comp);
    return fmi2OK;
}

/* ---- values by reference ---------------------------------------------------------------- */
FMI2_Export fmi2Status fmi2GetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t n,
                                   fmi2Real value[]) {
    Instance *c = (Instance *)comp;
    if (c == NULL) return fmi2Error;
    for (size_t i = 0; i < n; i++) /* derivatives, outputs, energies need an evaluation */
        if (((vr[i] >= JD_VR_DX && vr[i] < JD_VR_U) || vr[i] >= JD_VR_OUT) &&
            refresh(c) != fmi2OK) return fmi2Error;
    for (size_t i = 0; i < n; i++) {
        unsigned r = vr[i];
        if (r < JD_VR_DX) value[i] = c->s.x[r - JD_VR_X];
        else if (r < JD_VR_U) value[i] = c->dx[r - JD_VR_DX];
        else if (r < JD_VR_P) value[i] = c->s.u[r - JD_VR_U];
        else if (r < JD_VR_OUT) value[i] = c->s.p[r - JD_VR_P];
        else if (r < JD_VR_E) value[i] = c->out[r - JD_VR_OUT];
        else if (r < JD_VR_E + 2) value[i] = c->energy[r - JD_VR_E];
        else {
            logf_(c, fmi2Error, "logStatusError", "fmi2GetReal: no variable with value "
                  "reference %u", r);
            return fmi2Error;
        }
    }
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SetReal(fmi2Component comp, const fmi2ValueReference vr[], size_t n,
                                   const fmi2Real value[]) {
    Instance *c = (Instance *)comp;
    if (c == NULL) return fmi2Error;
    for (size_t i = 0; i < n; i++) {
        unsigned r = vr[i];
        int initial = c->s.mode != MODE_RUNNING;
        for (int k = 0; k < JD_NCALC; k++)
            if (r < JD_VR_DX && (int)(r - JD_VR_X) == jd_calculated[k]) {
                logf_(c, fmi2Error, "logStatusError", "fmi2SetReal: %s is calculated from the "
                      "closed loops' closure equations at initialization and cannot be set; "
                      "set the independent coordinates and speeds instead", jd_calculated_names[k]);
                return fmi2Error;
            }
        if (r < JD_VR_DX && initial) c->s.x[r - JD_VR_X] = value[i];
        else if (r >= JD_VR_U && r < JD_VR_P) c->s.u[r - JD_VR_U] = value[i];
        else if (r >= JD_VR_P && r < JD_VR_OUT && initial) c->s.p[r - JD_VR_P] = value[i];
        else {
            logf_(c, fmi2Error, "logStatusError", "fmi2SetReal: value reference %u cannot be "
                  "set %s", r, initial ? "(not a state, input or parameter)"
                  : "after initialization (only inputs can)");
            return fmi2Error;
        }
    }
    c->fresh = 0;
    return fmi2OK;
}

static fmi2Status none(fmi2Component c, size_t n, const char *what) {
    if (c == NULL) return fmi2Error;
    if (n == 0) return fmi2OK;
    logf_((Instance *)c, fmi2Error, "logStatusError", "this FMU has no %s variables", what);
    return fmi2Error;
}

FMI2_Export fmi2Status fmi2GetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                      fmi2Integer v[]) { (void)vr; (void)v; return none(c, n, "Integer"); }
FMI2_Export fmi2Status fmi2GetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                      fmi2Boolean v[]) { (void)vr; (void)v; return none(c, n, "Boolean"); }
FMI2_Export fmi2Status fmi2GetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                     fmi2String v[]) { (void)vr; (void)v; return none(c, n, "String"); }
FMI2_Export fmi2Status fmi2SetInteger(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                      const fmi2Integer v[]) { (void)vr; (void)v; return none(c, n, "Integer"); }
FMI2_Export fmi2Status fmi2SetBoolean(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                      const fmi2Boolean v[]) { (void)vr; (void)v; return none(c, n, "Boolean"); }
FMI2_Export fmi2Status fmi2SetString(fmi2Component c, const fmi2ValueReference vr[], size_t n,
                                     const fmi2String v[]) { (void)vr; (void)v; return none(c, n, "String"); }

/* ---- FMU state -------------------------------------------------------------------------- */
FMI2_Export fmi2Status fmi2GetFMUstate(fmi2Component comp, fmi2FMUstate *state) {
    Instance *c = (Instance *)comp;
    if (c == NULL || state == NULL) return fmi2Error;
    if (*state == NULL) *state = malloc(sizeof(Snapshot));
    if (*state == NULL) return fmi2Error;
    memcpy(*state, &c->s, sizeof(Snapshot));
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SetFMUstate(fmi2Component comp, fmi2FMUstate state) {
    Instance *c = (Instance *)comp;
    if (c == NULL || state == NULL) return fmi2Error;
    memcpy(&c->s, state, sizeof(Snapshot));
    c->fresh = 0;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2FreeFMUstate(fmi2Component comp, fmi2FMUstate *state) {
    (void)comp;
    if (state != NULL) { free(*state); *state = NULL; }
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SerializedFMUstateSize(fmi2Component c, fmi2FMUstate s, size_t *size) {
    (void)c; (void)s;
    *size = sizeof(Snapshot);
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SerializeFMUstate(fmi2Component c, fmi2FMUstate s, fmi2Byte bytes[],
                                             size_t size) {
    (void)c;
    if (s == NULL || size < sizeof(Snapshot)) return fmi2Error;
    memcpy(bytes, s, sizeof(Snapshot));
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2DeSerializeFMUstate(fmi2Component c, const fmi2Byte bytes[],
                                               size_t size, fmi2FMUstate *s) {
    (void)c;
    if (size != sizeof(Snapshot)) return fmi2Error;
    if (*s == NULL) *s = malloc(sizeof(Snapshot));
    if (*s == NULL) return fmi2Error;
    memcpy(*s, bytes, sizeof(Snapshot));
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetDirectionalDerivative(fmi2Component c,
        const fmi2ValueReference u[], size_t nu, const fmi2ValueReference z[], size_t nz,
        const fmi2Real du[], fmi2Real dz[]) {
    (void)u; (void)nu; (void)z; (void)nz; (void)du; (void)dz;
    logf_((Instance *)c, fmi2Error, "logStatusError", "directional derivatives are not provided");
    return fmi2Error;
}

/* ---- model exchange --------------------------------------------------------------------- */
FMI2_Export fmi2Status fmi2EnterEventMode(fmi2Component c) { return c ? fmi2OK : fmi2Error; }

/* Time events of the sampled blocks: the samples due now, and the next instant. */
FMI2_Export fmi2Status fmi2NewDiscreteStates(fmi2Component comp, fmi2EventInfo *info) {
    Instance *c = (Instance *)comp;
    if (c == NULL || info == NULL) return fmi2Error;
    memset(info, 0, sizeof *info);
    if (sample_due(c) != fmi2OK) return fmi2Error;
    if (JD_NSAMPLED > 0) {
        info->nextEventTimeDefined = fmi2True;
        info->nextEventTime = next_sample(c);
    }
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2EnterContinuousTimeMode(fmi2Component c) {
    return c ? fmi2OK : fmi2Error;
}

FMI2_Export fmi2Status fmi2CompletedIntegratorStep(fmi2Component c, fmi2Boolean noPrior,
                                                   fmi2Boolean *enterEventMode,
                                                   fmi2Boolean *terminate) {
    (void)noPrior;
    if (c == NULL) return fmi2Error;
    *enterEventMode = fmi2False;
    *terminate = fmi2False;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SetTime(fmi2Component comp, fmi2Real t) {
    Instance *c = (Instance *)comp;
    if (c == NULL) return fmi2Error;
    c->s.t = t;
    c->fresh = 0;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2SetContinuousStates(fmi2Component comp, const fmi2Real x[], size_t n) {
    Instance *c = (Instance *)comp;
    if (c == NULL || n != JD_NX) return fmi2Error;
    memcpy(c->s.x, x, sizeof(double) * n);
    c->fresh = 0;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetDerivatives(fmi2Component comp, fmi2Real dx[], size_t n) {
    Instance *c = (Instance *)comp;
    if (c == NULL || n != JD_NX) return fmi2Error;
    if (n == 0) return fmi2OK;
    if (eval_f(c, c->s.t, c->s.x, dx)) {
        logf_(c, fmi2Error, "logStatusError", "the state derivative could not be evaluated "
              "or is not finite at t = %g", c->s.t);
        return fmi2Error;
    }
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetEventIndicators(fmi2Component c, fmi2Real z[], size_t n) {
    (void)z;
    return (c != NULL && n == 0) ? fmi2OK : fmi2Error;
}

FMI2_Export fmi2Status fmi2GetContinuousStates(fmi2Component comp, fmi2Real x[], size_t n) {
    Instance *c = (Instance *)comp;
    if (c == NULL || n != JD_NX) return fmi2Error;
    memcpy(x, c->s.x, sizeof(double) * n);
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetNominalsOfContinuousStates(fmi2Component c, fmi2Real x[],
                                                         size_t n) {
    if (c == NULL || n != JD_NX) return fmi2Error;
    for (size_t i = 0; i < n; i++) x[i] = 1.0;
    return fmi2OK;
}

/* ---- co-simulation ---------------------------------------------------------------------- */
FMI2_Export fmi2Status fmi2SetRealInputDerivatives(fmi2Component c, const fmi2ValueReference vr[],
        size_t n, const fmi2Integer order[], const fmi2Real value[]) {
    (void)vr; (void)order; (void)value;
    return none(c, n, "interpolated input");
}

FMI2_Export fmi2Status fmi2GetRealOutputDerivatives(fmi2Component c,
        const fmi2ValueReference vr[], size_t n, const fmi2Integer order[], fmi2Real value[]) {
    (void)vr; (void)order; (void)value;
    return none(c, n, "output derivative");
}

FMI2_Export fmi2Status fmi2DoStep(fmi2Component comp, fmi2Real t, fmi2Real h, fmi2Boolean noPrior) {
    Instance *c = (Instance *)comp;
    fmi2Status status;
    (void)noPrior;
    if (c == NULL) return fmi2Error;
    if (fabs(t - c->s.t) > 1e-9 * fmax(1.0, fabs(t))) {
        logf_(c, fmi2Error, "logStatusError", "fmi2DoStep: the communication point %g is not "
              "the FMU's time %g", t, c->s.t);
        return fmi2Error;
    }
    if (h < 0) return fmi2Error;
    status = integrate(c, t + h);
    if (status == fmi2OK) c->s.t = t + h;
    return status;
}

FMI2_Export fmi2Status fmi2CancelStep(fmi2Component c) { (void)c; return fmi2Error; }

FMI2_Export fmi2Status fmi2GetStatus(fmi2Component c, const fmi2StatusKind s, fmi2Status *v) {
    (void)c; (void)s; (void)v;
    return fmi2Discard;
}

FMI2_Export fmi2Status fmi2GetRealStatus(fmi2Component comp, const fmi2StatusKind s,
                                         fmi2Real *v) {
    Instance *c = (Instance *)comp;
    if (c == NULL || s != fmi2LastSuccessfulTime) return fmi2Discard;
    *v = c->s.t;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetIntegerStatus(fmi2Component c, const fmi2StatusKind s,
                                            fmi2Integer *v) {
    (void)c; (void)s; (void)v;
    return fmi2Discard;
}

FMI2_Export fmi2Status fmi2GetBooleanStatus(fmi2Component c, const fmi2StatusKind s,
                                            fmi2Boolean *v) {
    Instance *c_ = (Instance *)c;
    if (c_ == NULL || s != fmi2Terminated) return fmi2Discard;
    *v = fmi2False;
    return fmi2OK;
}

FMI2_Export fmi2Status fmi2GetStringStatus(fmi2Component c, const fmi2StatusKind s,
                                           fmi2String *v) {
    (void)c; (void)s; (void)v;
    return fmi2Discard;
}
