/**
 * The dashboard's HTML shell: one page for `/dashboard` and every
 * `/dashboard/...` path; the client script renders the rest.
 *
 * @module
 */

/**
 * The HTML shell with four placeholders the server fills in:
 * `{{base}}` (the `api.basePath`), `{{stylesHref}}`, `{{scriptSrc}}` and
 * `{{clientSrc}}` (asset URLs; the app script imports the client from the
 * last). It holds no inline script or style, so a strict
 * content-security-policy applies.
 */
export const indexHtml: string = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="referrer" content="same-origin">
<meta name="strata-base" content="{{base}}">
<meta name="strata-client" content="{{clientSrc}}">
<title>Strata</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{stylesHref}}">
<link rel="modulepreload" href="{{clientSrc}}">
<script type="module" src="{{scriptSrc}}"></script>
</head>
<body>
<div id="app" class="app" data-testid="app"></div>
</body>
</html>
`;
