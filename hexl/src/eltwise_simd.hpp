// eltwise_simd.hpp -- the element-wise kernels on 64-bit vector lanes,
// written once over a lane type V (eltwise_avx2.cpp: 4 lanes of AVX2;
// eltwise_avx512.cpp: 8 lanes of AVX-512).  Included by those two files
// only, inside their target region and an unnamed namespace, so each gets
// its own copy compiled for its instructions.
//
// V gives: T (the register), L (lanes), Load, Store, Set1, Add, Sub, And,
// Or, Srl32 / Sll32 (shifts by 32), Srlv / Sllv (per-lane counts; counts
// of 64 and more give 0), Mul32 (the low 32 bits of each lane multiplied
// into 64), MinU (unsigned minimum), MulLo (the low 64 bits of a 64x64
// product) and SelectGe (x >= y unsigned ? a : b).
//
// The arithmetic is eltwise_kernels.hpp's, lane by lane; the tail of a
// length that is not a multiple of L takes its scalar functions (the same
// values).  Conditional subtractions are unsigned minima: for x in
// [0, 2c), min(x, x - c) is x - c when x >= c, and x otherwise (x - c
// wraps above x).

// The vector loops are unrolled 4 times: their bodies are a few
// instructions, and the loop's own counter, compare and branch otherwise
// hold the front end back.
#define ELTWISE_UNROLL _Pragma("GCC unroll 4")

template <class V> struct Simd {
    using T = typename V::T;

    // x in [0, 2c) to [0, c)
    static inline T CSub(T x, T c)
    {
        return V::MinU(x, V::Sub(x, c));
    }
    // x in [0, F q) to [0, q); q2 = 2q, q4 = 4q
    template <int F> static inline T Down(T x, T q, T q2, T q4)
    {
        if (F >= 8)
            x = CSub(x, q4);
        if (F >= 4)
            x = CSub(x, q2);
        if (F >= 2)
            x = CSub(x, q);
        return x;
    }
    // The 128-bit products a b from four 32x32-bit products: the low
    // half's cross terms cannot overflow 64 bits (each partial sum is at
    // most (2^32 - 1)^2 + 2 (2^32 - 1) < 2^64).
    static inline void MulFull(T a, T b, T *hi, T *lo)
    {
        const T m32 = V::Set1(0xffffffffull);
        T ah = V::Srl32(a), bh = V::Srl32(b);
        T ll = V::Mul32(a, b), lh = V::Mul32(a, bh), hl = V::Mul32(ah, b), hh = V::Mul32(ah, bh);
        T mid = V::Add(lh, V::Srl32(ll));
        T mid2 = V::Add(hl, V::And(mid, m32));
        *hi = V::Add(V::Add(hh, V::Srl32(mid)), V::Srl32(mid2));
        *lo = V::Or(V::Sll32(mid2), V::And(ll, m32));
    }
    // the high 64 bits of a b, b's high half given (b is a per-call constant)
    static inline T MulHi(T a, T b, T bh)
    {
        const T m32 = V::Set1(0xffffffffull);
        T ah = V::Srl32(a);
        T ll = V::Mul32(a, b), lh = V::Mul32(a, bh), hl = V::Mul32(ah, b), hh = V::Mul32(ah, bh);
        T mid = V::Add(lh, V::Srl32(ll));
        T mid2 = V::Add(hl, V::And(mid, m32));
        return V::Add(V::Add(hh, V::Srl32(mid)), V::Srl32(mid2));
    }

    static void Add(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q)
    {
        const T vq = V::Set1(q);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L)
            V::Store(r + i, CSub(V::Add(V::Load(a + i), V::Load(b + i)), vq));
        for (; i < n; i++) {
            uint64_t s = a[i] + b[i];
            r[i] = s >= q ? s - q : s;
        }
    }
    static void AddScalar(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q)
    {
        const T vq = V::Set1(q), vb = V::Set1(b);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L)
            V::Store(r + i, CSub(V::Add(V::Load(a + i), vb), vq));
        for (; i < n; i++) {
            uint64_t s = a[i] + b;
            r[i] = s >= q ? s - q : s;
        }
    }
    // a - b, plus q when it wrapped: min(a - b, a - b + q)
    static void Sub(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n, uint64_t q)
    {
        const T vq = V::Set1(q);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L) {
            T d = V::Sub(V::Load(a + i), V::Load(b + i));
            V::Store(r + i, V::MinU(d, V::Add(d, vq)));
        }
        for (; i < n; i++)
            r[i] = a[i] >= b[i] ? a[i] - b[i] : a[i] + (q - b[i]);
    }
    static void SubScalar(uint64_t *r, const uint64_t *a, uint64_t b, uint64_t n, uint64_t q)
    {
        const T vq = V::Set1(q), vb = V::Set1(b);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L) {
            T d = V::Sub(V::Load(a + i), vb);
            V::Store(r + i, V::MinU(d, V::Add(d, vq)));
        }
        for (; i < n; i++)
            r[i] = a[i] >= b ? a[i] - b : a[i] + (q - b);
    }

    // Barrett with mu62 (eltwise_kernels.hpp): t1 = floor(p / 2^(k-2)) from
    // the two halves of p, t = its high product with mu62, p - t q < 3q.
    // The bound needs only t1 < 2^64, p < 2^(k+62): inputs below F q are
    // taken unreduced (G = F) when F^2 q^2 < 2^(k+62), i.e. k <= 62 - 2
    // log2(F), and reduced first (G = 1) otherwise.
    template <int F, int G>
    static void MultF(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n,
                      const ModConsts &m)
    {
        const T vq = V::Set1(m.q), q2 = V::Set1(2 * m.q), q4 = V::Set1(4 * m.q);
        const T mu = V::Set1(m.mu62), muh = V::Set1(m.mu62 >> 32);
        const T shl = V::Set1(66 - m.k), shr = V::Set1(m.k - 2);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L) {
            T x = V::Load(a + i), y = V::Load(b + i);
            if (G == 1) {
                x = Down<F>(x, vq, q2, q4);
                y = Down<F>(y, vq, q2, q4);
            }
            T hi, lo;
            MulFull(x, y, &hi, &lo);
            T t1 = V::Or(V::Sllv(hi, shl), V::Srlv(lo, shr));
            T t = MulHi(t1, mu, muh);
            T x2 = V::Sub(lo, V::MulLo(t, vq));
            V::Store(r + i, CSub(CSub(x2, vq), vq));
        }
        for (; i < n; i++)
            r[i] = MulMod(a[i], b[i], m, F);
    }
    static void Mult(uint64_t *r, const uint64_t *a, const uint64_t *b, uint64_t n,
                     const ModConsts &m, uint64_t f)
    {
        if (f == 1)
            MultF<1, 1>(r, a, b, n, m);
        else if (f == 2)
            m.k <= 60 ? MultF<2, 2>(r, a, b, n, m) : MultF<2, 1>(r, a, b, n, m);
        else
            m.k <= 58 ? MultF<4, 4>(r, a, b, n, m) : MultF<4, 1>(r, a, b, n, m);
    }

    // Shoup's product (eltwise_kernels.hpp's MulModShoup), then the addend
    template <int F>
    static void FmaF(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
                     const ModConsts &m)
    {
        const uint64_t cs = ShoupFactor(c, m.q);
        const T vq = V::Set1(m.q), q2 = V::Set1(2 * m.q), q4 = V::Set1(4 * m.q);
        const T vc = V::Set1(c), vcs = V::Set1(cs), vcsh = V::Set1(cs >> 32);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L) {
            T x = V::Load(a + i);
            T t = MulHi(x, vcs, vcsh);
            T y = CSub(V::Sub(V::MulLo(x, vc), V::MulLo(t, vq)), vq);
            if (add)
                y = CSub(V::Add(y, Down<F>(V::Load(add + i), vq, q2, q4)), vq);
            V::Store(r + i, y);
        }
        for (; i < n; i++) {
            uint64_t x = MulModShoup(a[i], c, cs, m.q);
            if (add) {
                x = eltwise::CSub(x + eltwise::Down(add[i], m.q, F), m.q);
            }
            r[i] = x;
        }
    }
    static void Fma(uint64_t *r, const uint64_t *a, uint64_t c, const uint64_t *add, uint64_t n,
                    const ModConsts &m, uint64_t f)
    {
        if (f == 1)
            FmaF<1>(r, a, c, add, n, m);
        else if (f == 2)
            FmaF<2>(r, a, c, add, n, m);
        else if (f == 4)
            FmaF<4>(r, a, c, add, n, m);
        else
            FmaF<8>(r, a, c, add, n, m);
    }

    template <int F>
    static void DownF(uint64_t *r, const uint64_t *a, uint64_t n, const ModConsts &m)
    {
        const T vq = V::Set1(m.q), q2 = V::Set1(2 * m.q), q4 = V::Set1(4 * m.q);
        uint64_t i = 0;
        ELTWISE_UNROLL
        for (; i + V::L <= n; i += V::L)
            V::Store(r + i, Down<F>(V::Load(a + i), vq, q2, q4));
        for (; i < n; i++)
            r[i] = eltwise::Down(a[i], m.q, F);
    }
    static void Reduce(uint64_t *r, const uint64_t *a, uint64_t n, const ModConsts &m, uint64_t in,
                       uint64_t out)
    {
        const T vq = V::Set1(m.q), q2 = V::Set1(2 * m.q);
        const T b = V::Set1(m.barrett64), bh = V::Set1(m.barrett64 >> 32);
        uint64_t i = 0;
        if (in == m.q && out == 1) {
            ELTWISE_UNROLL
            for (; i + V::L <= n; i += V::L) {
                T x = V::Load(a + i);
                V::Store(r + i, CSub(V::Sub(x, V::MulLo(MulHi(x, b, bh), vq)), vq));
            }
            for (; i < n; i++)
                r[i] = Reduce1(a[i], m);
        } else if (in == m.q) { // HEXL's portable value: below 2q untouched
            const T one = V::Set1(1);
            ELTWISE_UNROLL
            for (; i + V::L <= n; i += V::L) {
                T x = V::Load(a + i);
                T y = V::Sub(x, V::MulLo(MulHi(x, b, bh), vq));
                V::Store(r + i, V::SelectGe(V::Srlv(x, one), vq, y, x));
            }
            for (; i < n; i++)
                r[i] = ReduceLazy2(a[i], m);
        } else if (out == 2) { // 4 -> 2
            ELTWISE_UNROLL
            for (; i + V::L <= n; i += V::L)
                V::Store(r + i, CSub(V::Load(a + i), q2));
            for (; i < n; i++)
                r[i] = a[i] >= 2 * m.q ? a[i] - 2 * m.q : a[i];
        } else if (in == 2) {
            DownF<2>(r, a, n, m);
        } else {
            DownF<4>(r, a, n, m);
        }
    }
};
