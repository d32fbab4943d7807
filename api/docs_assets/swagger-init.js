// Starts Swagger UI on the page /schema serves. A file of ours rather than an inline
// script, so the page works under a Content-Security-Policy of script-src 'self'.
"use strict";

(function () {
  const root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.dataset.specUrl,
    dom_id: "#swagger-ui",
    deepLinking: true,
    // No online validator badge: it would load an image from validator.swagger.io.
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
  });
})();
