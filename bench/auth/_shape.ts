// The body the anonymous route answers: set to the bench user's User shape at boot, so the
// anonymous route and GET /auth/me send the same bytes.
export const shape: { user: unknown } = { user: null };
