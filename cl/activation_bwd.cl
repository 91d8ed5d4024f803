/* The derivative of the ten MIOpen activation modes (reference/miopen-semantics.md 3.1),
 * chosen at compile time by ACTIV_MODE (cl/activation.cl): dx from dy, the activation's
 * forward input x and its forward output y. As MIOpen's kernels: ABS takes -1 at x = 0,
 * SOFTRELU clamps x at 50 before the exponential, and POWER is 0 where its base is not
 * positive. Unlike MIOpen (whose kernels and host reference both drop it), POWER keeps the dy
 * factor: dx = dy * gamma * beta * y / (alpha + beta * x), the chain rule. */
inline float clf_activ_bwd(float dy, float x, float y, float alpha, float beta, float gamma)
{
#if ACTIV_MODE == 0 /* PASTHRU */
    return dy;
#elif ACTIV_MODE == 1 /* LOGISTIC */
    return dy * y * (1.0f - y);
#elif ACTIV_MODE == 2 /* TANH: y = beta * tanh(alpha * x) */
    return dy * alpha * (beta - y * y / beta);
#elif ACTIV_MODE == 3 /* RELU */
    return x > 0.0f ? dy : 0.0f;
#elif ACTIV_MODE == 4 /* SOFTRELU: the logistic of x */
    float e = exp(fmin(x, 50.0f));
    return dy * e / (e + 1.0f);
#elif ACTIV_MODE == 5 /* ABS */
    return x > 0.0f ? dy : -dy;
#elif ACTIV_MODE == 6 /* POWER */
    float base = alpha + beta * x;
    return base <= 2.220446049250313e-16f ? 0.0f : dy * gamma * beta * y / base;
#elif ACTIV_MODE == 7 /* CLIPPEDRELU */
    return (x > 0.0f && x <= alpha) ? dy : 0.0f;
#elif ACTIV_MODE == 8 /* LEAKYRELU */
    return x > 0.0f ? dy : dy * alpha;
#elif ACTIV_MODE == 9 /* ELU */
    return x > 0.0f ? dy : dy * (y + alpha);
#else
#error "unknown ACTIV_MODE"
#endif
}
