import { Center, Loader } from '@mantine/core';
import { Navigate, Route, Routes } from 'react-router-dom';
import { Layout } from './Layout';
import { AuditPage } from './pages/AuditPage';
import { InvoicePage } from './pages/InvoicePage';
import { KeysPage } from './pages/KeysPage';
import { LinksPage } from './pages/LinksPage';
import { LoginPage } from './pages/LoginPage';
import { OverviewPage } from './pages/OverviewPage';
import { PaymentPage } from './pages/PaymentPage';
import { PaymentsPage } from './pages/PaymentsPage';
import { SplitsPage } from './pages/SplitsPage';
import { UsersPage } from './pages/UsersPage';
import { WebhooksPage } from './pages/WebhooksPage';
import { EventPage } from './pages/EventPage';
import { EventsPage } from './pages/EventsPage';
import { SettingsPage } from './pages/SettingsPage';
import { useSession } from './session';

export function App() {
  const { session } = useSession();
  if (session === undefined) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (session === null) return <LoginPage />;
  return (
    <Layout>
      <Routes>
        <Route path="/" element={<OverviewPage />} />
        <Route path="/payments" element={<PaymentsPage />} />
        <Route path="/payments/:id" element={<PaymentPage />} />
        <Route path="/webhooks" element={<WebhooksPage />} />
        <Route path="/events" element={<EventsPage />} />
        <Route path="/events/:id" element={<EventPage />} />
        <Route path="/settings" element={<SettingsPage />} />
        <Route path="/keys" element={<KeysPage />} />
        <Route path="/users" element={<UsersPage />} />
        <Route path="/audit" element={<AuditPage />} />
        <Route path="/links" element={<LinksPage />} />
        <Route path="/splits" element={<SplitsPage />} />
        <Route path="/splits/invoices/:reference" element={<InvoicePage />} />
        <Route path="*" element={<Navigate to="/" replace />} />
      </Routes>
    </Layout>
  );
}
