try {
  if (localStorage.getItem('outpost.darkMode') === 'true') document.documentElement.classList.add('dark');
} catch (e) {}
