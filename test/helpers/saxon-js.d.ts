declare module 'saxon-js';
