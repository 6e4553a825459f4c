/**
 * The dashboard's HTML shell: one page for `/dashboard` and every
 * `/dashboard/...` path; the client script renders the rest.
 *
 * @module
 */

/**
 * The HTML shell with three placeholders the server fills in:
 * `{{base}}` (the `api.basePath`), `{{stylesHref}}` and `{{scriptSrc}}`
 * (asset URLs). It holds no inline script or style, so a strict
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
<title>Strata</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{{stylesHref}}">
<script type="module" src="{{scriptSrc}}"></script>
</head>
<body>
<div id="app" class="app" data-testid="app"></div>
</body>
</html>
`;
